#!/usr/bin/env bash
# GPU metrics check and timing (issue 36): metrics_cuda_test, then apsp metrics on the cuda back
# end (reduced on the GPU) against Dijkstra batches on the host CPUs, same graph, same call.
#   SIZES="20000" BIG=0 bash bench/metrics/gpu_metrics.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
export NCCL_NVLS_ENABLE=0
OUT=${OUT:-/tmp/apsp-gpu}
BUILD=${BUILD:-build-gpu}
mkdir -p "$OUT"
summary=$OUT/summary_metrics.txt
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
note "device: $(nvidia-smi -L | wc -l)x $gpu, $(nproc) CPUs; commit ${APSP_COMMIT:-?}"
t0=$(date +%s)
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DAPSP_BUILD_PYTHON=OFF \
  -DCMAKE_CUDA_ARCHITECTURES=90a-real -DAPSP_GTEST_SOURCE="$PWD/.deps/googletest" \
  -DCMAKE_PREFIX_PATH="$PWD/.deps" >"$OUT/configure.log" 2>&1 &&
  cmake --build "$BUILD" -j"$(nproc)" --target ${TARGETS:-metrics_cuda_test apsp_cli} >"$OUT/build.log" 2>&1 ||
  { grep -m5 -A10 error "$OUT/build.log"; exit 1; }
note "build: $(($(date +%s) - t0)) s"
A=$BUILD/cli/apsp
if [[ ${TEST:-1} == 1 ]]; then
  timeout 300 "$BUILD/tests/cuda/metrics_cuda_test" --gtest_brief=1 >"$OUT/metrics_cuda_test.log" 2>&1
  note "metrics_cuda_test: rc=$? $(grep -E 'PASSED|FAILED' "$OUT/metrics_cuda_test.log" | head -3 | tr '\n' ' ')"
fi
for n in ${SIZES:-20000}; do
  python3 bench/random_graph.py "$OUT/g$n.bin" "$n" --per-vertex "${PER:-20}" >/dev/null
  for how in "--backend cuda" ${CPU:+"--backend cpu --algorithm johnson"}; do
    t=$EPOCHREALTIME
    /usr/bin/time -f "%M" -o "$OUT/rss" "$A" metrics "$OUT/g$n.bin" $how --json -o "$OUT/m$n-${how// /_}.csv" \
      >"$OUT/m$n-${how// /_}.json" 2>"$OUT/m$n.err" || { note "n=$n $how FAILED: $(tail -2 "$OUT/m$n.err")"; continue; }
    wall=$(python3 -c "print(f'{$EPOCHREALTIME - $t:.2f}')")
    note "n=$n $how: wall $wall s, $(python3 -c "
import json,sys; j=json.load(open(sys.argv[1])); r=j.get('run',j)
print('metrics', r['seconds']['metrics'] if 'seconds' in r else '?', 's; driver', r.get('driver'), '; host_matrix', r.get('host_matrix'), '; diameter', j.get('diameter'), '; avg', j.get('average-path-length'))" "$OUT/m$n-${how// /_}.json" 2>&1 | tail -1); peak RSS $(($(cat "$OUT/rss") / 1024)) MiB"
  done
  if [[ -n ${CPU:-} ]]; then
    python3 - "$OUT/m$n---backend_cuda.csv" "$OUT/m$n---backend_cpu_--algorithm_johnson.csv" <<'PY' | tee -a "$summary"
import csv, sys, math
a = list(csv.reader(open(sys.argv[1]))); b = list(csv.reader(open(sys.argv[2])))
assert a[0] == b[0], (a[0], b[0])
worst = 0.0; exact = True
for ra, rb in zip(a[1:], b[1:]):
    for x, y in zip(ra, rb):
        if x == y: continue
        exact = False
        fx, fy = float(x), float(y)
        worst = max(worst, abs(fx - fy) / max(1.0, abs(fy)))
print(f"cuda vs cpu Dijkstra CSV: {len(a)-1} rows, columns {a[0]}, {'identical' if exact else f'largest relative difference {worst:.3g}'}")
PY
  fi
  rm -f "$OUT/g$n.bin"
done
cat "$summary"

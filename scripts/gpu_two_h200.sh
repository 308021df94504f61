#!/usr/bin/env bash
# One call on two H200s: build, every gpu-labelled test (the two-device ones included), the
# multi-GPU benchmarks (in core n=40000, out of core n=80000 with a per-device cap) and the
# headline: a 140,000-vertex graph solved with int32 distances on both GPUs, progress logged.
#   APSP_COMMIT=abc1234 scripts/gpu_two_h200.sh
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/apsp-gpu}
BUILD=${BUILD:-build-gpu}
COMMIT=${APSP_COMMIT:-unknown}
DATE=$(date -u +%Y-%m-%d)
mkdir -p "$OUT" ../shared/data
cp -n .gpu_data/* ../shared/data/ 2>/dev/null
export APSP_DATA_DIR=$PWD/.gpu_data
summary="$OUT/summary_two_h200.txt"
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee -a "$summary"
nvidia-smi topo -m >"$OUT/topo.txt" 2>&1

t0=$(date +%s)
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DAPSP_BUILD_PYTHON=OFF \
  -DCMAKE_CUDA_ARCHITECTURES=90a-real \
  -DAPSP_GTEST_SOURCE="$PWD/.deps/googletest" -DCMAKE_PREFIX_PATH="$PWD/.deps" \
  >"$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build "$BUILD" -j32 >"$OUT/build.log" 2>&1 || { grep -B3 -A12 -m5 error "$OUT/build.log"; exit 1; }
note "build: $(($(date +%s) - t0)) s"

t0=$(date +%s)
(cd "$BUILD" && timeout 200 ctest -L gpu --output-on-failure -j3 >"$OUT/ctest_gpu.log" 2>&1)
note "ctest -L gpu: rc=$? in $(($(date +%s) - t0)) s: $(grep -E 'tests passed|tests failed' "$OUT/ctest_gpu.log")"
grep -E "\*\*\*Failed|\*\*\*Timeout|Failure$|\(Skipped\)" "$OUT/ctest_gpu.log" | head -20 | tee -a "$summary"

timeout 200 "$BUILD/bench/cuda/apsp_bench_blocked" --multi 40000 --multi-ooc 40000:2G,80000:8G \
  --devices 0,1 --csv "$OUT/cuda_multi_$DATE.csv" --commit "$COMMIT" \
  --command "scripts/gpu_two_h200.sh" >"$OUT/bench_multi.log" 2>&1
note "multi bench rc=$?"
grep -E "^  (n=|multi)|^    on" "$OUT/bench_multi.log" | tee -a "$summary"

# The headline: 140,000 vertices (the adult fly brain's neuron count), a synthetic directed
# graph with 20 out-edges per vertex (2.8 M edges) and weights 1..100, int32 distances.
python3 - "$OUT/fly140k.bin" <<'PY'
import sys
import numpy as np
n, per = 140000, 20
rng = np.random.default_rng(140000)
src = np.repeat(np.arange(n, dtype=np.int32), per)
dst = rng.integers(0, n, size=src.size, dtype=np.int32)
w = rng.integers(1, 101, size=src.size, dtype=np.int32)
with open(sys.argv[1], "wb") as f:
    np.array([n, src.size], dtype=np.int32).tofile(f)
    np.stack([src, dst, w], axis=1).astype(np.int32).tofile(f)
PY
start=$EPOCHREALTIME
timeout 280 "$BUILD/cli/apsp" solve "$OUT/fly140k.bin" --devices 0,1 --progress --json \
  >"$OUT/headline.json" 2>"$OUT/headline_progress.log"
rc=$?
end=$EPOCHREALTIME
rm -f "$OUT/fly140k.bin"
note "headline rc=$rc wall $(python3 -c "print(f'{$end - $start:.1f}')") s; progress lines: $(grep -c 'apsp: round' "$OUT/headline_progress.log")"
head -3 "$OUT/headline_progress.log" | tee -a "$summary"
tail -2 "$OUT/headline_progress.log" | tee -a "$summary"
python3 -c "
import json; j = json.load(open('$OUT/headline.json'))
print('headline', j.get('backend'), j.get('device'), 'n', j.get('n'), 'seconds', j.get('seconds'), 'updates/s', j.get('updates_per_second'), 'pairs', j.get('reachable_pairs'))" | tee -a "$summary"
echo "================ summary ================"
cat "$summary"

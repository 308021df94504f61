#!/usr/bin/env bash
# One call on a GPU machine: build, GPU tests, SASS check, compute-sanitizer, min-plus peak and
# benchmarks. Logs go to $OUT (default /tmp/apsp-gpu); a short table is printed last.
#   scripts/gpu_check.sh [check|bench|all|ooc|multi]     (default all; ooc, multi: gpu_blocked.sh)
# check: build + tests + SASS + sanitizer + peak + a quick n = 10000 bench
# bench: build + peak + the full bench (n = 10000, 20000, 40000) + baselines
# Env: BUILD (build dir, default build-gpu), APSP_COMMIT (commit id for the CSV),
#      APSP_DATA_DIR (where rome99.gr is, for the tests).
set -uo pipefail
cd "$(dirname "$0")/.."
MODE=${1:-all}
# Out-of-core (one GPU) and multi-GPU (two GPUs) modes live in their own script.
[[ $MODE == ooc || $MODE == multi ]] && exec "$(dirname "$0")/gpu_blocked.sh" "$MODE"
OUT=${OUT:-/tmp/apsp-gpu}
BUILD=${BUILD:-build-gpu}
COMMIT=${APSP_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
DATE=$(date -u +%Y-%m-%d)
mkdir -p "$OUT"
summary="$OUT/summary.txt"
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu \
  --format=csv | tee "$OUT/gpu.txt"

t0=$(date +%s)
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DAPSP_BUILD_PYTHON=OFF \
  -DAPSP_BUILD_CLI=OFF -DAPSP_GTEST_SOURCE="$PWD/.deps/googletest" \
  -DCMAKE_PREFIX_PATH="$PWD/.deps" >"$OUT/configure.log" 2>&1 ||
  { tail -40 "$OUT/configure.log"; exit 1; }
targets="apsp_bench_cuda"
[[ $MODE != bench ]] && targets="$targets cuda_backend_test packed16_test conformance_cuda"
cmake --build "$BUILD" -j16 --target $targets >"$OUT/build.log" 2>&1 ||
  { grep -B3 -A12 -m5 "error" "$OUT/build.log"; exit 1; }
note "build: $(( $(date +%s) - t0 )) s"

if [[ $MODE != bench ]]; then
  # SASS: the int32 min-plus kernels must use the fused DPX instruction on sm_90a.
  obj=$(find "$BUILD" -name 'fw_int32.cu.o' | head -1)
  cuobjdump -sass -arch sm_90a "$obj" >"$OUT/fw_int32.sass" 2>&1
  awk '/Function :/{f=$3} /VIADDMNMX/{c[f]++} /IADD3|VIMNMX/{o[f]++}
       END{for (k in c) printf "  %6d VIADDMNMX  %s\n", c[k], k}' "$OUT/fw_int32.sass" |
    c++filt | tee -a "$summary"
  # The packed 16-bit kernel must use the two-lane form (VIADDMNMX.S16x2).
  obj16=$(find "$BUILD" -name 'fw_packed16.cu.o' | head -1)
  cuobjdump -sass -arch sm_90a "$obj16" >"$OUT/fw_packed16.sass" 2>&1
  awk '/Function :/{f=$3} /VIADDMNMX/{c[f]++} END{for (k in c) printf "  %6d VIADDMNMX  %s\n", c[k], k}' \
    "$OUT/fw_packed16.sass" | c++filt | tee -a "$summary"
  cuobjdump -res-usage "$obj" 2>&1 | c++filt | grep -A1 "min_plus\|pivot" >"$OUT/res_usage.txt"

  export APSP_DATA_DIR=${APSP_DATA_DIR:-$PWD/build-cuda/gpu_data}
  "$BUILD/tests/cuda/cuda_backend_test" >"$OUT/cuda_backend_test.log" 2>&1
  note "cuda_backend_test: rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/cuda_backend_test.log" | tr '\n' ' ')"
  grep -E "FAILED|Failure|error" "$OUT/cuda_backend_test.log" | head -20
  "$BUILD/tests/cuda/packed16_test" >"$OUT/packed16_test.log" 2>&1
  note "packed16_test: rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/packed16_test.log" | tr '\n' ' ')"
  grep -E "FAILED|Failure" "$OUT/packed16_test.log" | head -20
  if [[ -x "$BUILD/tests/conformance/conformance_cuda" ]]; then
    "$BUILD/tests/conformance/conformance_cuda" >"$OUT/conformance_cuda.log" 2>&1
    note "conformance_cuda: rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/conformance_cuda.log" | tr '\n' ' ')"
    grep -E "FAILED|Failure" "$OUT/conformance_cuda.log" | head -20
  fi
  small='TileEdges/CudaSizes.Int32MatchesReferenceExactly/5:TileEdges/CudaSizes.Float32MatchesReferenceWithinRounding/5:Cuda.NegativeWeightsWithoutCyclesMatchReference'
  for tool in memcheck racecheck; do
    compute-sanitizer --tool $tool --error-exitcode 9 "$BUILD/tests/cuda/cuda_backend_test" \
      --gtest_filter="$small" >"$OUT/sanitizer_$tool.log" 2>&1
    note "compute-sanitizer $tool: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitizer_$tool.log" | tr '\n' ' ')"
  done
  for tool in memcheck racecheck; do
    compute-sanitizer --tool $tool --error-exitcode 9 "$BUILD/tests/cuda/packed16_test" \
      --gtest_filter='TileEdges/PackedSizes.*/7:Packed16.DisconnectedGraphKeepsInfinity' \
      >"$OUT/sanitizer_packed16_$tool.log" 2>&1
    note "compute-sanitizer $tool (packed16): rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitizer_packed16_$tool.log" | tr '\n' ' ')"
  done
fi

bench="$BUILD/bench/cuda/apsp_bench_cuda"
csv="$OUT/cuda_$DATE.csv"
if [[ $MODE == check ]]; then
  args=(--peak --sizes 10000 --modes int32,int32_paths,float32,packed16 --solve)
else
  args=(--peak --sizes 10000,20000,40000 --modes int32,int32_paths,float32,packed16 --solve
        --naive 10000 --blocked32 10000,20000)
fi
"$bench" "${args[@]}" --csv "$csv" --commit "$COMMIT" \
  --command "scripts/gpu_check.sh $MODE" 2>&1 | tee "$OUT/bench.log"
note "bench rc=${PIPESTATUS[0]}"
echo "================ summary ================"
cat "$summary"
grep -E "peak|kernels|baseline|naive|blocked|solve n" "$OUT/bench.log"

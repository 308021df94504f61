#!/usr/bin/env bash
# The lead's one-call GPU session: build everything (CLI included), run every gpu-labelled test,
# the packed/out-of-core benchmarks and the CLI whole-run timings. Logs and CSVs under $OUT; a
# short table last. Needs .deps (googletest, CLI11, nlohmann-json) and .gpu_data (DE.gr,
# rome99.gr) carried along.
#   scripts/gpu_final.sh [tests|bench|all]
set -uo pipefail
cd "$(dirname "$0")/.."
MODE=${1:-all}
export OUT=${OUT:-/tmp/apsp-gpu}
BUILD=${BUILD:-build-gpu}
export APSP_COMMIT=${APSP_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
export APSP_DATA_DIR=$PWD/.gpu_data
mkdir -p "$OUT" ../shared/data
cp -n .gpu_data/* ../shared/data/ 2>/dev/null
summary="$OUT/summary.txt"
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.max.sm --format=csv | tee -a "$summary"

t0=$(date +%s)
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DAPSP_BUILD_PYTHON=OFF \
  -DAPSP_GTEST_SOURCE="$PWD/.deps/googletest" -DCMAKE_PREFIX_PATH="$PWD/.deps" \
  >"$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build "$BUILD" -j16 >"$OUT/build.log" 2>&1 ||
  { grep -B3 -A12 -m5 "error" "$OUT/build.log"; exit 1; }
note "build: $(($(date +%s) - t0)) s"

if [[ $MODE != bench ]]; then
  t0=$(date +%s)
  (cd "$BUILD" && timeout 420 ctest -L gpu --output-on-failure -j2 >"$OUT/ctest_gpu.log" 2>&1)
  note "ctest -L gpu: rc=$? in $(($(date +%s) - t0)) s: $(grep -E 'tests passed|tests failed' "$OUT/ctest_gpu.log")"
  grep -E "\*\*\*Failed|Failure|Timeout" "$OUT/ctest_gpu.log" | head -20 | tee -a "$summary"
  grep -E "^\s*[0-9]+ - .*(Skipped|Failed)" "$OUT/ctest_gpu.log" | head -20 | tee -a "$summary"
fi

if [[ $MODE != tests ]]; then
  timeout 200 python3 bench/cuda/wholerun.py --apsp "$BUILD/cli/apsp" --data .gpu_data \
    --out "$OUT" 2>&1 | tee "$OUT/wholerun.log"
  # BENCH_EXTRA: further benchmark commands are added below as the features land.
fi
echo "================ summary ================"
cat "$summary"
grep -E "wholerun" "$OUT/wholerun.log" 2>/dev/null

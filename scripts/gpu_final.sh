#!/usr/bin/env bash
# The lead's GPU calls: build everything (CLI included, sm_90a only to save build time), run
# every gpu-labelled test, then the benchmarks. Logs and CSVs under $OUT; a short table last.
# Needs .deps (googletest, CLI11, nlohmann-json) and .gpu_data (DE.gr, rome99.gr) carried along.
#   scripts/gpu_final.sh tests    build + ctest -L gpu (+ sanitizer on out-of-core)
#   scripts/gpu_final.sh bench    (after tests, same machine) out-of-core, packed, whole runs
#   scripts/gpu_final.sh all      both
set -uo pipefail
cd "$(dirname "$0")/.."
MODE=${1:-tests}
source scripts/gpu_build.sh
gpu_script_setup "summary_$MODE.txt"

if [[ $MODE != bench ]]; then
  t0=$(date +%s)
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DAPSP_BUILD_PYTHON=OFF \
    -DCMAKE_CUDA_ARCHITECTURES=90a-real \
    -DAPSP_GTEST_SOURCE="$PWD/.deps/googletest" -DCMAKE_PREFIX_PATH="$PWD/.deps" \
    >"$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
  cmake --build "$BUILD" -j16 >"$OUT/build.log" 2>&1 ||
    { grep -B3 -A12 -m5 "error" "$OUT/build.log"; exit 1; }
  note "build: $(($(date +%s) - t0)) s"
  obj=$(find "$BUILD" -name 'fw_packed16.cu.o' | head -1)
  [[ -n $obj ]] && note "packed SASS: $(cuobjdump -sass "$obj" 2>/dev/null | grep -c 'VIADDMNMX') VIADDMNMX in fw_packed16"
  t0=$(date +%s)
  (cd "$BUILD" && timeout 400 ctest -L gpu --output-on-failure -j3 >"$OUT/ctest_gpu.log" 2>&1)
  note "ctest -L gpu: rc=$? in $(($(date +%s) - t0)) s: $(grep -E 'tests passed|tests failed' "$OUT/ctest_gpu.log")"
  grep -E "\*\*\*Failed|\*\*\*Timeout|Failure$" "$OUT/ctest_gpu.log" | head -20 | tee -a "$summary"
  grep -E "^\s*[0-9]+ - .*\((Skipped|Failed|Timeout)\)" "$OUT/ctest_gpu.log" | head -30 | tee -a "$summary"
  small='OuterBlocks/CudaOutOfCoreSizes.Int32BitIdenticalToInCoreAndReference/n300_bo128_negative'
  timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 \
    "$BUILD/tests/cuda/cuda_out_of_core_test" --gtest_filter="$small" >"$OUT/sanitizer_ooc.log" 2>&1
  note "compute-sanitizer memcheck (out-of-core n=300): rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/sanitizer_ooc.log")"
fi
if [[ $MODE != tests ]]; then
  csv="$OUT/cuda_blocked_$DATE.csv"
  APSP_CUDA_VERBOSE=1 timeout 150 "$BUILD/bench/cuda/apsp_bench_blocked" --ooc 40000:2G \
    --csv "$csv" --commit "$APSP_COMMIT" --command "scripts/gpu_final.sh bench" \
    >"$OUT/bench_ooc.log" 2>&1
  note "ooc bench rc=$?"; grep -E "^  (n=|ooc)|out-of-core:|in-core" "$OUT/bench_ooc.log" | tee -a "$summary"
  timeout 120 "$BUILD/bench/cuda/apsp_bench_cuda" --peak --sizes 10000,20000,40000 \
    --modes packed16 --csv "$OUT/cuda_packed_$DATE.csv" --commit "$APSP_COMMIT" \
    --command "scripts/gpu_final.sh bench" >"$OUT/bench_packed.log" 2>&1
  note "packed bench rc=$?"; grep -E "packed|peak" "$OUT/bench_packed.log" | tail -8 | tee -a "$summary"
  timeout 240 python3 bench/cuda/wholerun.py --apsp "$BUILD/cli/apsp" --data .gpu_data \
    --out "$OUT" >"$OUT/wholerun.log" 2>&1
  note "wholerun rc=$?"; grep -E "wholerun|graph" "$OUT/wholerun.log" | tee -a "$summary"
fi
echo "================ summary ($MODE) ================"
cat "$summary"

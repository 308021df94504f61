#!/usr/bin/env bash
# GPU call for the path kernels: build (tests + bench), every gpu-labelled test, the SASS of
# the phase-3 path kernel, then int32/float32 path benchmarks for each phase-3 path variant.
#   scripts/gpu_paths.sh [tests|bench|all]       (default all)
# Env: PATHS_MODES (default int32_paths), PATHS_SIZES (default 40000), PATHS_TAGGED ("1 0":
# time with the tagged phase 3 and with APSP_CUDA_TAGGED_PATHS=0), PATHS_OOC (N:CAP,...: also
# apsp_bench_blocked --paths --ooc, whole solves in core and out of core).
set -uo pipefail
cd "$(dirname "$0")/.."
MODE=${1:-all}
source scripts/gpu_build.sh
gpu_script_setup summary_paths.txt

t0=$(date +%s)
targets=all
[[ $MODE == bench ]] && targets=apsp_bench_cuda
if [[ -d $BUILD ]]; then # a warm machine: rebuild what changed
  cmake --build "$BUILD" -j"$(nproc)" --target $targets >"$OUT/build.log" 2>&1 ||
    { tail -20 "$OUT/build.log"; exit 1; }
else
  gpu_build_targets $targets || exit 1
fi
note "build: $(($(date +%s) - t0)) s"
obj=$(find "$BUILD" -name 'fw_int32.cu.o' | head -1)
cuobjdump -sass "$obj" >"$OUT/fw_int32.sass" 2>&1
awk '/Function :/{f=$3} /VIADDMNMX/{c[f]++} END{for (k in c) printf "  %6d VIADDMNMX  %s\n", c[k], k}' \
  "$OUT/fw_int32.sass" | c++filt | grep -E "paths|pipelined|tagged" | tee -a "$summary"
grep -c "LDL\|STL" "$OUT/fw_int32.sass" | xargs -I{} note "local-memory instructions in fw_int32: {}"

if [[ $MODE != bench ]]; then
  t0=$(date +%s)
  (cd "$BUILD" && timeout 300 ctest -L gpu --output-on-failure -j3 >"$OUT/ctest_gpu.log" 2>&1)
  note "ctest -L gpu: rc=$? in $(($(date +%s) - t0)) s: $(grep -E 'tests passed|tests failed' "$OUT/ctest_gpu.log")"
  grep -E "^\s*[0-9]+ - .*\((Skipped|Failed|Timeout)\)" "$OUT/ctest_gpu.log" | head -30 | tee -a "$summary"
  small='TileEdges/CudaSizes.Int32MatchesReferenceExactly/8'
  timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 \
    "$BUILD/tests/cuda/cuda_backend_test" --gtest_filter="$small" >"$OUT/racecheck_paths.log" 2>&1
  note "compute-sanitizer racecheck (paths, n=421): rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/racecheck_paths.log" | tail -1)"
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 \
    "$BUILD/tests/cuda/cuda_backend_test" --gtest_filter='Cuda.TaggedPaths*' >"$OUT/memcheck_tagged.log" 2>&1
  note "compute-sanitizer memcheck (tagged paths tests): rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck_tagged.log" | tail -1)"
fi
if [[ $MODE != tests ]]; then
  for g in ${PATHS_TAGGED:-1}; do
    APSP_CUDA_TAGGED_PATHS=$g timeout 200 "$BUILD/bench/cuda/apsp_bench_cuda" \
      --sizes "${PATHS_SIZES:-40000}" --modes "${PATHS_MODES:-int32_paths}" \
      --csv "$OUT/cuda_paths_tagged${g}_$DATE.csv" --commit "$APSP_COMMIT" \
      --command "APSP_CUDA_TAGGED_PATHS=$g scripts/gpu_paths.sh bench" >"$OUT/bench_paths_t$g.log" 2>&1
    note "tagged=$g rc=$?"; grep -E "n=" "$OUT/bench_paths_t$g.log" | tee -a "$summary"
    if [[ -n ${PATHS_OOC:-} ]]; then
      APSP_CUDA_TAGGED_PATHS=$g timeout 300 "$BUILD/bench/cuda/apsp_bench_blocked" --paths \
        --ooc "$PATHS_OOC" --csv "$OUT/cuda_ooc_paths_tagged${g}_$DATE.csv" --commit "$APSP_COMMIT" \
        --command "APSP_CUDA_TAGGED_PATHS=$g scripts/gpu_paths.sh bench (PATHS_OOC=$PATHS_OOC)" \
        >"$OUT/bench_ooc_paths_t$g.log" 2>&1
      note "ooc paths tagged=$g rc=$?"; grep -E "^  (n=|ooc)|in-core|out-of-core" "$OUT/bench_ooc_paths_t$g.log" | tee -a "$summary"
    fi
  done
fi
# Few files come back from the device: everything but the summary goes into one archive.
(cd "$OUT" && tar czf /tmp/gpu_paths_logs.tgz --exclude="$(basename "$summary")" . &&
  find . -mindepth 1 -maxdepth 1 ! -name "$(basename "$summary")" -exec rm -rf {} + &&
  mv /tmp/gpu_paths_logs.tgz .)
echo "================ summary ($MODE) ================"
cat "$summary"

#!/usr/bin/env bash
# One call: build, the gpu tests (TESTS=0 skips them), then the kernel rates of
# apsp_bench_cuda with an environment setting switched between values, alternating ROUNDS
# times, so a change and its baseline are measured on the same machine in the same call.
#   AB_VAR=APSP_CUDA_TRIM_PADDING AB_VALUES="1 0" SIZES=5000,10000,20000 KMODES=int32,float32 \
#     ROUNDS=2 scripts/gpu_ab.sh
set -uo pipefail
cd "$(dirname "$0")/.."
export NCCL_NVLS_ENABLE=0
source scripts/gpu_build.sh
gpu_script_setup summary_ab.txt
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DAPSP_BUILD_PYTHON=OFF \
  -DCMAKE_CUDA_ARCHITECTURES=90a-real -DAPSP_GTEST_SOURCE="$PWD/.deps/googletest" \
  -DCMAKE_PREFIX_PATH="$PWD/.deps" >"$OUT/configure.log" 2>&1
t0=$(date +%s)
cmake --build "$BUILD" -j"$(nproc)" >"$OUT/build.log" 2>&1 ||
  { grep -m3 -A8 error "$OUT/build.log"; exit 1; }
note "build: $(($(date +%s) - t0)) s"
if [[ ${TESTS:-1} == 1 ]]; then
  t0=$(date +%s)
  (cd "$BUILD" && timeout 420 ctest -L gpu -j2 --output-on-failure >"$OUT/ctest_gpu.log" 2>&1)
  note "ctest -L gpu: rc=$? in $(($(date +%s) - t0)) s: $(grep -E 'tests passed|tests failed' "$OUT/ctest_gpu.log")"
  grep -E "\*\*\*Failed|\*\*\*Timeout|Failure$" "$OUT/ctest_gpu.log" | head -20 | tee -a "$summary"
fi
B=$BUILD/bench/cuda/apsp_bench_cuda
SIZES=${SIZES:-5000,10000,20000}
KMODES=${KMODES:-int32,float32}
for round in $(seq "${ROUNDS:-2}"); do
  for v in ${AB_VALUES:-1 0}; do
    cmd="$AB_VAR=$v apsp_bench_cuda --peak --sizes $SIZES --modes $KMODES (round $round)"
    env "$AB_VAR=$v" timeout 200 "$B" --peak --sizes "$SIZES" --modes "$KMODES" \
      --csv "$OUT/ab_${v}_$round.csv" --commit "$APSP_COMMIT" --command "$cmd" \
      >"$OUT/ab_${v}_$round.log" 2>&1
    note "$AB_VAR=$v round $round:"
    grep -E "kernels|peak" "$OUT/ab_${v}_$round.log" | tee -a "$summary"
  done
done
echo "================ summary ================"
cat "$summary"

#!/usr/bin/env bash
# One call: build, the gpu tests, the kernel rates at n = 5000-20000 with and without the
# in-core look-ahead (APSP_CUDA_LOOKAHEAD), and whole runs both ways (gpu_breakdown.sh).
#   KMODES=int32,float32,int32_paths,packed16 BREAKDOWN=0 scripts/gpu_lookahead.sh
export OUT=$OUT BUILD=build-gpu NCCL_NVLS_ENABLE=0
source scripts/gpu_build.sh
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DAPSP_BUILD_PYTHON=OFF -DCMAKE_CUDA_ARCHITECTURES=90a-real -DAPSP_GTEST_SOURCE=$PWD/.deps/googletest -DCMAKE_PREFIX_PATH=$PWD/.deps >/dev/null 2>&1
cmake --build build-gpu -j16 > $OUT/build.log 2>&1 || { grep -m3 -A8 error $OUT/build.log; exit 1; }
(cd build-gpu && ctest -L gpu -j1 > $OUT/ctest_gpu.log 2>&1); grep -E "tests passed|tests failed|\*\*\*Failed" $OUT/ctest_gpu.log | head
B=build-gpu/bench/cuda/apsp_bench_cuda
KMODES=${KMODES:-int32,float32}
for la in 1 0; do echo "APSP_CUDA_LOOKAHEAD=$la"; APSP_CUDA_LOOKAHEAD=$la $B --peak --sizes 5000,10000,20000 --modes $KMODES --csv $OUT/k_$la.csv --commit $(git rev-parse --short HEAD) --command "APSP_CUDA_LOOKAHEAD=$la apsp_bench_cuda --peak --sizes 5000,10000,20000 --modes $KMODES" 2>&1 | grep -vi "^\s*$" | tail -12; done
[[ ${BREAKDOWN:-1} == 1 ]] && SIZES="5000 10000 20000" MODES="APSP_CUDA_LOOKAHEAD=0" REPEAT=5 scripts/gpu_breakdown.sh 2>&1 | grep "median"

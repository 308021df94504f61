#!/usr/bin/env bash
# One call on a GPU machine: build (sm_90a, CLI and tests), the gpu-labelled tests, and the MPI
# tests (cpu ranks under the machine's Open MPI) with a 2-rank run of rome99 beside a one-GPU
# solve of the same file. Logs under $OUT; a short table last.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu_build.sh
gpu_script_setup summary_mpi.txt
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DAPSP_BUILD_PYTHON=OFF \
  -DAPSP_BUILD_BENCH=OFF -DCMAKE_CUDA_ARCHITECTURES=90a-real \
  -DAPSP_GTEST_SOURCE="$PWD/.deps/googletest" -DCMAKE_PREFIX_PATH="$PWD/.deps" \
  >"$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
grep "apsp:" "$OUT/configure.log" | tee -a "$summary"
cmake --build "$BUILD" -j"$(nproc)" >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
(cd "$BUILD" && ctest -L gpu -j1 --output-on-failure >"$OUT/ctest_gpu.log" 2>&1)
note "gpu tests: $(grep -E 'tests passed|tests failed' "$OUT/ctest_gpu.log")"
(cd "$BUILD" && ctest -R mpi_tests --output-on-failure >"$OUT/ctest_mpi.log" 2>&1)
note "mpi tests: $(grep -E 'tests passed|tests failed' "$OUT/ctest_mpi.log") $(grep -E 'passed|skipped' "$OUT/ctest_mpi.log" | tail -1)"
A=$BUILD/cli/apsp
$A solve data/rome99.gr -o "$OUT/gpu.npy" --paths "$OUT/gpu_via.npy" --json >"$OUT/gpu.json" 2>&1
mpirun -np 2 --oversubscribe $A solve data/rome99.gr -o "$OUT/mpi.npy" --paths "$OUT/mpi_via.npy" \
  --json >"$OUT/mpi.json" 2>"$OUT/mpi.err"
note "rome99 one GPU vs 2 cpu ranks: distances $(cmp -s "$OUT/gpu.npy" "$OUT/mpi.npy" && echo identical || echo DIFFER)," \
  "sums $(grep distance_sum "$OUT/gpu.json" | tr -d ' ,') / $(grep distance_sum "$OUT/mpi.json" | tr -d ' ,')"
rm -f "$OUT"/*.npy
cat "$summary"

#!/usr/bin/env bash
# One call on a GPU machine: build (sm_90a, CLI and tests), the gpu-labelled tests, then the
# distributed solver with one GPU per MPI rank (2 ranks; both on device 0 when there is one GPU)
# beside one GPU in one process: outputs compared byte for byte, paths checked, and the solve
# stage timed at n = $TIME_N (also against --devices 0,1 when there are two GPUs). Logs under
# $OUT; a short table last.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu_build.sh
gpu_script_setup summary_mpi.txt
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
TIME_N=${TIME_N:-20000}
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DAPSP_BUILD_PYTHON=OFF \
  -DAPSP_BUILD_BENCH=OFF -DCMAKE_CUDA_ARCHITECTURES=90a-real \
  -DAPSP_GTEST_SOURCE="$PWD/.deps/googletest" -DCMAKE_PREFIX_PATH="$PWD/.deps" \
  >"$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
grep "apsp:" "$OUT/configure.log" | tee -a "$summary"
cmake --build "$BUILD" -j"$(nproc)" >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
if [[ ${SKIP_GPU_TESTS:-0} != 1 ]]; then
  (cd "$BUILD" && ctest -L gpu -j1 --output-on-failure >"$OUT/ctest_gpu.log" 2>&1)
  note "gpu tests: $(grep -E 'tests passed|tests failed' "$OUT/ctest_gpu.log")"
else
  (cd "$BUILD" && ctest -R rank_executor_test --output-on-failure >"$OUT/ctest_rank.log" 2>&1)
  note "rank executor tests: $(grep -E 'tests passed|tests failed' "$OUT/ctest_rank.log")"
fi
A=$BUILD/cli/apsp
gpus=$(nvidia-smi -L | wc -l)
# A random graph as DIMACS (awk: nothing else to install): n vertices, m arcs, weights 1..999.
make_graph() { awk -v n="$1" -v m="$2" -v seed="$3" 'BEGIN { srand(seed); print "p sp", n, m;
  for (e = 0; e < m; e++) printf "a %d %d %d\n", int(rand()*n)+1, int(rand()*n)+1, int(rand()*999)+1 }' >"$4"; }
solve_s() { grep '"solve"' "$1" | tr -dc '0-9.\n' | head -1; }
make_graph 3000 200000 7 "$OUT/g.gr"
$A solve "$OUT/g.gr" -o "$OUT/one.npy" --paths "$OUT/one_via.npy" --backend cuda --no-map-output \
  --json >"$OUT/one.json" 2>&1
# Every grid of 2 ranks, with the default, forced and no look-ahead, and a block that leaves a partial round.
for grid in 1x2 2x1; do
  for extra in "" "--lookahead" "--no-lookahead" "--block 384"; do
    mpirun -np 2 --oversubscribe $A solve "$OUT/g.gr" -o "$OUT/two.npy" --backend cuda \
      --grid $grid $extra --json >"$OUT/two.json" 2>"$OUT/two.err"
    note "n=3000, 2 GPU ranks, grid $grid $extra ($(grep -o '"exchange": "[^"]*' "$OUT/two.json" |
      cut -c14-)): distances vs one GPU" \
      "$(cmp -s "$OUT/one.npy" "$OUT/two.npy" && echo IDENTICAL || echo DIFFER)"
  done
done
mpirun -np 2 --oversubscribe $A solve "$OUT/g.gr" -o "$OUT/two.npy" --paths "$OUT/two_via.npy" \
  --backend cuda --json >"$OUT/two.json" 2>"$OUT/two.err"
note "n=3000, 2 GPU ranks with paths ($(grep -o '"device": "[^"]*' "$OUT/two.json" | cut -c12-60)...):" \
  "distances vs one GPU $(cmp -s "$OUT/one.npy" "$OUT/two.npy" && echo IDENTICAL || echo DIFFER)"
for s in 1 17 1234 2999; do
  for t in 3000 5 777; do
    $A path "$OUT/g.gr" $s $t --dist "$OUT/two.npy" --via "$OUT/two_via.npy" --json
  done
done >"$OUT/paths.jsonl"
# Each printed path is re-weighed along the graph's cheapest arcs and compared with its length.
awk 'FNR == NR { if ($1 == "a") { k = $2 " " $3; if (!(k in w) || $4 < w[k]) w[k] = $4 }; next }
  { gsub(/[{}\[\]":,]/, " "); n = split($0, f, " "); len = f[6]; s = 0; bad = 0;
    for (i = 8; i < n; i++) { k = f[i] " " f[i+1]; if (!(k in w)) bad = 1; s += w[k] }
    if (bad || s != len) wrong++; total++ }
  END { printf "%d of %d sampled paths are shortest walks\n", total - wrong, total }' \
  "$OUT/g.gr" "$OUT/paths.jsonl" | tee -a "$summary"
$A verify "$OUT/g.gr" "$OUT/two.npy" --sources 32 | tail -1 | sed 's/^/verify: /' | tee -a "$summary"
mpirun -np 2 --oversubscribe $A solve data/rome99.gr --backend cuda --json >"$OUT/rome.json" 2>&1
note "rome99 on 2 GPU ranks: $(grep -E 'distance_sum|max_distance' "$OUT/rome.json" | tr -d ' \n')"
make_graph "$TIME_N" $((TIME_N * 40)) 3 "$OUT/big.gr"
$A solve "$OUT/big.gr" --backend cuda --json >"$OUT/t_one.json" 2>&1
note "n=$TIME_N solve stage: one GPU $(solve_s "$OUT/t_one.json") s"
if ((gpus >= 2)); then
  $A solve "$OUT/big.gr" --backend cuda --devices 0,1 --json >"$OUT/t_dev2.json" 2>&1
  note "n=$TIME_N solve stage: --devices 0,1 $(solve_s "$OUT/t_dev2.json") s"
fi
for b in 256 512 1024; do
  mpirun -np 2 --bind-to none $A solve "$OUT/big.gr" --backend cuda --block $b --json \
    >"$OUT/t_mpi_$b.json" 2>"$OUT/t_mpi_$b.err"
  note "n=$TIME_N solve stage: 2 GPU ranks, block $b: $(solve_s "$OUT/t_mpi_$b.json") s"
done
rm -f "$OUT"/*.npy "$OUT"/*.gr
cat "$summary"

#!/usr/bin/env bash
# One call on a two-GPU machine: does the staging buffers' size matter? Build, every
# gpu-labelled test with APSP_CUDA_STAGING_MB=16 (the copies through 16 MiB buffers), then
# whole runs alternating the default size (edge-list sized, at most 64 MiB) with
# APSP_CUDA_STAGING_MB=$SMALL: `apsp solve dense.bin -o d.bin --devices 0,1` at n = 40,000
# (n^2/16 arcs) with APSP_CUDA_RANK_TIMES=1, and one GPU at n = 20,000 and 40,000. Rows to
# $OUT/cuda_multi_<date>.csv; a table last.
#   SMALL="16 8" ROUNDS=3 scripts/gpu_staging_size.sh
set -uo pipefail
cd "$(dirname "$0")/.."
export NCCL_NVLS_ENABLE=0
source scripts/gpu_build.sh
gpu_script_setup summary_staging_size.txt
WORK=${WORK:-/tmp/apsp-staging}
mkdir -p "$WORK"
gpu_build_targets apsp_cli || exit 1
cmake --build "$BUILD" -j"$(nproc)" >"$WORK/build_all.log" 2>&1 || { tail -20 "$WORK/build_all.log"; exit 1; }
t0=$(date +%s)
(cd "$BUILD" && APSP_CUDA_STAGING_MB=16 timeout 300 ctest -L gpu -j3 --output-on-failure >"$WORK/ctest.log" 2>&1)
note "ctest -L gpu with APSP_CUDA_STAGING_MB=16: rc=$? in $(($(date +%s) - t0)) s: $(grep -E 'tests passed|tests failed' "$WORK/ctest.log")"
grep -E "\*\*\*Failed|\*\*\*Timeout" "$WORK/ctest.log" | head | tee -a "$summary"
python3 bench/random_graph.py "$WORK/dense40000.bin" 40000
python3 bench/random_graph.py "$WORK/dense20000.bin" 20000
csv="$OUT/cuda_multi_$DATE.csv"
[[ -f $csv ]] || echo "date,device,commit,command,n,mode,seconds,updates_per_s,pct_peak" >"$csv"
gpu="$(nvidia-smi -L | wc -l)x $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
run() { # staging-MiB-or-default n devices
  # An empty APSP_CUDA_STAGING_MB is the default size (transfer.cpp).
  APSP_CUDA_STAGING_MB=${1/default/} timed_solve "$BUILD/cli/apsp" "$WORK/dense$2.bin" \
    "$WORK/d.bin" --devices "$3" --algorithm fw || { note "staging $1 n=$2 --devices $3 FAILED"; return; }
  note "staging $1 n=$2 --devices $3: solve $SOLVE_S s, whole $WHOLE_S s $RANK_TIMES"
  echo "$DATE,\"$gpu\",$APSP_COMMIT,\"scripts/gpu_staging_size.sh: APSP_CUDA_STAGING_MB=${1/default/} apsp solve dense$2.bin -o d.bin --devices $3 --algorithm fw --json\",$2,\"staging $1 devices $3 solve\",$SOLVE_S,$(python3 -c "print(f'{$2**3/$SOLVE_S:.4e}')")," >>"$csv"
}
for round in $(seq "${ROUNDS:-3}"); do
  for size in default ${SMALL:-16 8}; do
    run "$size" 40000 0,1
    run "$size" 40000 0
    run "$size" 20000 0
  done
done
rm -f "$WORK"/*.bin
echo "================ summary ================"
cat "$summary"

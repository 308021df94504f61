#!/usr/bin/env bash
# GPU ranks against the in-process multi-GPU driver on one machine with two or more GPUs (the
# 2x H200 targets of docs/distributed.md): for each n in $SIZES, `apsp solve --devices 0,1` and
# `mpirun -np 2 apsp solve --backend cuda` (one rank per GPU, panels over NCCL) with each block
# of $BLOCKS, with and without look-ahead; solve stage only (no output files). Graphs: 20
# out-edges per vertex, weights 1..100 (the headline generator of scripts/gpu_two_h200.sh).
# Rows go to $OUT/mpi_gpu_ranks.csv (date, device, commit, command, n, config, seconds, rate),
# a table last.
# VARIANTS: the look-ahead settings to run (default "auto --lookahead --no-lookahead"; auto is
# the library's choice); IN_PROCESS=0 skips the in-process run, ONE_GPU=1 adds one GPU alone. Rows also carry the setup and finish stages of the whole run.
#   SIZES="80000" BLOCKS="512 1024" OUT=/tmp/x bench/mpi/gpu_ranks.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu_build.sh
gpu_script_setup summary_gpu_ranks.txt
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SIZES=${SIZES:-80000}
BLOCKS=${BLOCKS:-512 1024}
read -ra variants <<<"${VARIANTS:-auto --lookahead --no-lookahead}"
gpu_build_targets apsp_cli || exit 1
A=$(find "$BUILD" -name apsp -type f -perm -u+x | head -1)
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
gpus=$(nvidia-smi -L | wc -l)
csv="$OUT/mpi_gpu_ranks.csv"
[[ -f $csv ]] || echo "date,device,commit,command,n,config,solve_seconds,updates_per_s,setup_seconds,finish_seconds" >"$csv"
stage() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['seconds'][sys.argv[2]])" "$1" "$2" 2>/dev/null; }
solve_s() { stage "$1" solve; }
row() { # n config command json
  local s; s=$(solve_s "$4")
  [[ -z $s ]] && { note "n=$1 $2: FAILED ($(tail -2 "${4%.json}.err" 2>/dev/null | tr '\n' ' '))"; return; }
  local rate; rate=$(python3 -c "print(f'{$1**3/$s:.4e}')")
  local setup finish; setup=$(stage "$4" setup); finish=$(stage "$4" finish)
  echo "$DATE,\"${gpus}x $gpu\",$APSP_COMMIT,\"$3\",$1,\"$2\",$s,$rate,$setup,$finish" >>"$csv"
  note "n=$1 $2: solve $s s, $rate updates/s (setup $setup s, finish $finish s)"
}
for n in $SIZES; do
  g="$OUT/g$n.bin"
  python3 - "$g" "$n" <<'PY'
import sys
import numpy as np
path, n, per = sys.argv[1], int(sys.argv[2]), 20
rng = np.random.default_rng(n)
src = np.repeat(np.arange(n, dtype=np.int32), per)
dst = rng.integers(0, n, size=src.size, dtype=np.int32)
w = rng.integers(1, 101, size=src.size, dtype=np.int32)
with open(path, "wb") as f:
    np.array([n, src.size], dtype=np.int32).tofile(f)
    np.stack([src, dst, w], axis=1).astype(np.int32).tofile(f)
PY
  # --algorithm fw: under auto a sparse graph may go to the cpu (it did at n = 80,000 before the
  # cost model counted the second GPU).
  cmd="apsp solve g$n.bin --devices 0,1 --algorithm fw --json"
  if [[ ${ONE_GPU:-0} == 1 ]]; then
    $A solve "$g" --devices 0 --algorithm fw --json >"$OUT/one_$n.json" 2>"$OUT/one_$n.err"
    row "$n" "one GPU, one process" "apsp solve g$n.bin --devices 0 --algorithm fw --json" \
      "$OUT/one_$n.json"
  fi
  if [[ ${IN_PROCESS:-1} == 1 ]]; then
    $A solve "$g" --devices 0,1 --algorithm fw --json >"$OUT/dev_$n.json" 2>"$OUT/dev_$n.err"
    row "$n" "in-process --devices 0,1" "$cmd" "$OUT/dev_$n.json"
  fi
  for b in $BLOCKS; do
    for v in "${variants[@]}"; do
      la=$([[ $v == auto ]] || echo "$v")
      cmd="mpirun -np 2 --bind-to none apsp solve g$n.bin --backend cuda --block $b${la:+ $la} --json"
      f="$OUT/mpi_${n}_${b}_${v#--}.json"
      mpirun -np 2 --bind-to none -x NCCL_NVLS_ENABLE $A solve "$g" --backend cuda --block "$b" \
        $la --json >"$f" 2>"${f%.json}.err"
      used=$(grep -o '"lookahead": [a-z]*' "$f" | cut -c14-)
      row "$n" "2 GPU ranks (grid 1x2), block $b, look-ahead $v (ran: $used) ($(grep -o '"exchange": "[^"]*' "$f" | cut -c14-))" "$cmd" "$f"
    done
  done
  rm -f "$g"
done
echo "================ summary ================"
cat "$summary"

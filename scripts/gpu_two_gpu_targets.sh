#!/usr/bin/env bash
# One call on a two-GPU machine for issue 12's targets: build and every gpu-labelled test
# (scripts/gpu_final.sh tests), then
#  1. deferred pivots against pivots found in the rounds (APSP_CUDA_DEFERRED_PIVOTS=1|0, one
#     build, alternating): kernel rates of fractional float32 paths and of the int32 rescan;
#  2. whole runs `apsp solve gN.bin -o d.bin` with `--devices 0` and `--devices all`,
#     alternating, at each n of $SIZES (random graphs with n^2/16 edges), median of $REPEAT;
#  3. the split's solve stage against one GPU at n = 40,000 on both benchmark graphs
#     (apsp_bench_blocked --multi, and 20 out-edges per vertex through the CLI), with
#     APSP_CUDA_RANK_TIMES=1 saying where each device's time goes.
# Work files under $WORK; summaries and CSVs to $OUT; a table last.
#   SIZES="5000 10000 20000 30000 40000" REPEAT=3 scripts/gpu_two_gpu_targets.sh
set -uo pipefail
cd "$(dirname "$0")/.."
export NCCL_NVLS_ENABLE=0
FINAL_OUT=${OUT:-/tmp/apsp-gpu}
export WORK=${WORK:-/tmp/apsp-two}
mkdir -p "$FINAL_OUT" "$WORK"
if [[ ${SKIP_TESTS:-0} != 1 ]]; then
  OUT=$WORK scripts/gpu_final.sh tests >"$WORK/tests.out" 2>&1
  t=$(find build-gpu -path '*tests/cuda/cuda_backend_test' -type f | head -1)
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 "$t" \
    --gtest_filter='Cuda.DeferredPivots*' >"$WORK/sanitizer_deferred.log" 2>&1
  echo "compute-sanitizer memcheck (deferred pivots): rc=$? $(grep -E 'ERROR SUMMARY' "$WORK/sanitizer_deferred.log")" \
    >>"$WORK/summary_tests.txt"
  cp "$WORK/summary_tests.txt" "$WORK/ctest_gpu.log" "$FINAL_OUT/" 2>/dev/null
fi
OUT=$FINAL_OUT
source scripts/gpu_build.sh
gpu_script_setup summary_targets.txt
gpu_build_targets apsp_bench_cuda apsp_bench_blocked apsp_cli || exit 1
A=$BUILD/cli/apsp
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)

# 1. Deferred pivots.
for round in 1 2; do
  for d in 1 0; do
    APSP_CUDA_DEFERRED_PIVOTS=$d timeout 150 "$BUILD/bench/cuda/apsp_bench_cuda" --peak \
      --sizes "${DEFER_SIZES:-10000,20000}" --modes float32_paths_fractional,int32_paths \
      --csv "$OUT/cuda_$DATE.csv" --commit "$APSP_COMMIT" \
      --command "APSP_CUDA_DEFERRED_PIVOTS=$d apsp_bench_cuda --peak --sizes ${DEFER_SIZES:-10000,20000} --modes float32_paths_fractional,int32_paths" \
      >"$WORK/defer_${d}_$round.log" 2>&1
    note "APSP_CUDA_DEFERRED_PIVOTS=$d round $round:"
    grep -E "kernels" "$WORK/defer_${d}_$round.log" | tee -a "$summary"
  done
done

# 2. Whole runs, one GPU against --devices all.
csv="$OUT/cuda_wholerun_$DATE.csv"
[[ -f $csv ]] || echo "date,device,commit,command,n,mode,seconds,updates_per_s" >"$csv"
for n in ${SIZES:-5000 10000 20000 30000 40000}; do
  python3 bench/random_graph.py "$WORK/g$n.bin" "$n"
  for mode in 0 all; do : >"$WORK/t_${n}_$mode"; done
  for round in $(seq "${REPEAT:-3}"); do
    for mode in 0 all; do
      rm -f "$WORK/d.bin"
      sync
      start=$EPOCHREALTIME
      "$A" solve "$WORK/g$n.bin" -o "$WORK/d.bin" --devices "$mode" --json >"$WORK/w_${n}_$mode.json" \
        2>"$WORK/w_${n}_$mode.err" || note "n=$n --devices $mode FAILED: $(tail -1 "$WORK/w_${n}_$mode.err")"
      end=$EPOCHREALTIME
      python3 -c "print(f'{$end - $start:.4f}')" >>"$WORK/t_${n}_$mode"
      if [[ $mode == 0 ]]; then
        mv "$WORK/d.bin" "$WORK/d_one.bin"
      elif ! cmp -s "$WORK/d.bin" "$WORK/d_one.bin"; then
        note "n=$n --devices all: output differs from one GPU"
      fi
    done
  done
  for mode in 0 all; do
    med=$(sort -n "$WORK/t_${n}_$mode" | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
    dev=$(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(j.get('device',''), 'solve', j['seconds']['solve'])" "$WORK/w_${n}_$mode.json" 2>/dev/null)
    note "n=$n --devices $mode: whole $med s (runs $(tr '\n' ' ' <"$WORK/t_${n}_$mode")) $dev"
    echo "$DATE,\"$(nvidia-smi -L | wc -l)x $gpu\",$APSP_COMMIT,\"scripts/gpu_two_gpu_targets.sh: apsp solve g$n.bin -o d.bin --devices $mode (n^2/16 edges, median of ${REPEAT:-3}, alternating, fresh target)\",$n,\"devices $mode\",$med,$(python3 -c "print(f'{$n**3/$med:.4e}')")" >>"$csv"
  done
  rm -f "$WORK/g$n.bin" "$WORK/d.bin" "$WORK/d_one.bin"
done

# 3. The split's solve stage at n = 40,000.
APSP_CUDA_RANK_TIMES=1 timeout 200 "$BUILD/bench/cuda/apsp_bench_blocked" --multi 40000 --devices 0,1 \
  --csv "$OUT/cuda_multi_$DATE.csv" --commit "$APSP_COMMIT" \
  --command "APSP_CUDA_RANK_TIMES=1 apsp_bench_blocked --multi 40000 --devices 0,1" \
  >"$WORK/bench_multi.log" 2>&1
note "multi bench rc=$?"
grep -E "^  (n=|multi)|rank times" "$WORK/bench_multi.log" | tee -a "$summary"
APSP_CUDA_RANK_TIMES=1 OUT=$WORK ONE_GPU=1 SIZES=40000 BLOCKS=256 VARIANTS=auto IN_PROCESS=1 \
  timeout 200 bench/mpi/gpu_ranks.sh >"$WORK/ranks.out" 2>&1
grep -E "^n=" "$WORK/ranks.out" | tee -a "$summary"
grep -h "rank times" "$WORK"/one_40000.err "$WORK"/dev_40000.err 2>/dev/null | tee -a "$summary"
cp "$WORK/mpi_gpu_ranks.csv" "$OUT/" 2>/dev/null
tar -C "$WORK" -czf "$OUT/logs.tgz" --exclude='*.bin' --exclude='*.npy' . 2>/dev/null
echo "================ tests ================"
cat "$WORK/summary_tests.txt" 2>/dev/null
echo "================ targets ================"
cat "$summary"

#!/usr/bin/env bash
# One call on a two-GPU machine: every gpu-labelled test on the working tree (scripts/gpu_final.sh
# tests), then the working tree against a baseline (the same tree with $PATCH reverted, built in
# /tmp/apsp-base), alternating $ROUNDS times: `apsp solve GRAPH -o d.bin --devices 0,1
# --algorithm fw --json` with APSP_CUDA_RANK_TIMES=1 on two graphs of n = $N (n^2/16 random
# arcs, weights 1..1000; 20 out-edges per vertex, weights 1..100), and one GPU (--devices 0)
# for the ratio. Solve stages, whole runs and each device's set-up and download in a table last;
# rows to $OUT/cuda_multi_<date>.csv.
#   PATCH=.ab/staging.patch N=40000 ROUNDS=3 scripts/gpu_split_ab.sh
set -uo pipefail
cd "$(dirname "$0")/.."
export NCCL_NVLS_ENABLE=0
FINAL_OUT=${OUT:-/tmp/apsp-gpu}
WORK=${WORK:-/tmp/apsp-split-ab}
mkdir -p "$FINAL_OUT" "$WORK"
if [[ ${SKIP_TESTS:-0} != 1 ]]; then
  OUT=$WORK scripts/gpu_final.sh tests >"$WORK/tests.out" 2>&1
  cp "$WORK/summary_tests.txt" "$WORK/ctest_gpu.log" "$FINAL_OUT/" 2>/dev/null
fi
OUT=$FINAL_OUT
source scripts/gpu_build.sh
gpu_script_setup summary_split_ab.txt
gpu_build_targets apsp_cli || exit 1
BASE=/tmp/apsp-base
rm -rf "$BASE" && mkdir -p "$BASE"
tar --exclude='./build*' -cf - . | tar -C "$BASE" -xf -
(cd "$BASE" && { patch -s -R -p1 <"${PATCH:?}" || git apply -R "$PATCH"; } && OUT=$WORK &&
  source scripts/gpu_build.sh && BUILD=build-gpu gpu_build_targets apsp_cli) >"$WORK/base_build.log" 2>&1 ||
  { note "baseline build failed"; tail -20 "$WORK/base_build.log"; exit 1; }
N=${N:-40000}
python3 bench/random_graph.py "$WORK/dense.bin" "$N"
python3 - "$WORK/sparse.bin" "$N" <<'PY'
import sys
import numpy as np
path, n = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(n)
src = np.repeat(np.arange(n, dtype=np.int32), 20)
dst = rng.integers(0, n, src.size, dtype=np.int32)
w = rng.integers(1, 101, src.size, dtype=np.int32)
with open(path, "wb") as f:
    np.array([n, src.size], dtype=np.int32).tofile(f)
    np.stack([src, dst, w], axis=1).astype(np.int32).tofile(f)
PY
csv="$OUT/cuda_multi_$DATE.csv"
[[ -f $csv ]] || echo "date,device,commit,command,n,mode,seconds,updates_per_s,pct_peak" >"$csv"
gpu="$(nvidia-smi -L | wc -l)x $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
run() { # label binary graph devices
  timed_solve "$2" "$WORK/$3.bin" "$WORK/d.bin" --devices "$4" --algorithm fw ||
    { note "$1 $3 --devices $4 FAILED"; return; }
  note "$1 $3 --devices $4: solve $SOLVE_S s, whole $WHOLE_S s $RANK_TIMES"
  echo "$DATE,\"$gpu\",$APSP_COMMIT,\"scripts/gpu_split_ab.sh ($1): apsp solve $3$N.bin -o d.bin --devices $4 --algorithm fw --json\",$N,\"$1 $3 devices $4 solve\",$SOLVE_S,$(python3 -c "print(f'{$N**3/$SOLVE_S:.4e}')")," >>"$csv"
  [[ $4 == 0 ]] && mv "$WORK/d.bin" "$WORK/one_$3.bin"
  [[ $4 != 0 && -f $WORK/one_$3.bin ]] && ! cmp -s "$WORK/d.bin" "$WORK/one_$3.bin" &&
    note "$1 $3: split output differs from one GPU"
  return 0
}
for round in $(seq "${ROUNDS:-3}"); do
  for graph in dense sparse; do
    run new "$BUILD/cli/apsp" "$graph" 0
    run base "$BASE/build-gpu/cli/apsp" "$graph" 0,1
    run new "$BUILD/cli/apsp" "$graph" 0,1
  done
done
rm -f "$WORK"/*.bin
echo "================ tests ================"
cat "$WORK/summary_tests.txt" 2>/dev/null
echo "================ split A/B ================"
cat "$summary"

#!/usr/bin/env bash
# Where a whole run's milliseconds go at small n (issue: speed at every size): for each n in
# $SIZES a random graph with n^2/16 edges (weights 1..1000, course binary), then `apsp solve
# g.bin -o d.bin` from a fresh target $REPEAT times (wall clock, median) with APSP_TRACE=1
# timestamps and the --json stages, one run with APSP_CUDA_VERBOSE=1 (the driver's own steps),
# the bare process (`apsp --version`), the CUDA context alone (cudaFree(0) through ctypes), and
# the variants in $MODES beside the default (env settings or extra flags, ";"-separated).
# The traced run also prints how long the process took to exit after its last line. HOLD=1 keeps
# a CUDA context open in a background process throughout, as the driver's persistence mode
# would (the GPU stays initialised between runs): what each run then saves is the GPU's own
# start and teardown. Logs under $OUT; a table last. Run after a build ($BUILD/cli/apsp).
#   SIZES="5000 10000 20000" BUILD=build-gpu [HOLD=1] scripts/gpu_breakdown.sh
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/apsp-gpu}
BUILD=${BUILD:-build-gpu}
W=${WORK:-/tmp/apsp-breakdown}
SIZES=${SIZES:-5000 10000 20000}
REPEAT=${REPEAT:-5}
MODES=${MODES-"APSP_CUDA_STAGING_MB=64;--no-map-output"}
mkdir -p "$OUT" "$W"
A="$BUILD/cli/apsp"
HOLD=${HOLD:-0}
table="$OUT/breakdown_table.txt"
[[ $HOLD == 1 ]] && table="$OUT/breakdown_table_hold.txt"
: >"$table"
wall() { # prints seconds of "$@"
  local s=$EPOCHREALTIME
  "$@" >/dev/null 2>&1
  local e=$EPOCHREALTIME
  python3 -c "print(f'{$e - $s:.4f}')"
}
median() { python3 -c "import sys,statistics; print(f'{statistics.median(map(float, sys.argv[1:])):.4f}')" "$@"; }
v=(); for i in $(seq "$REPEAT"); do v+=("$(wall "$A" --version)"); done
cudart=$(ls /usr/local/cuda/lib64/libcudart.so* 2>/dev/null | head -1)
holder=
if [[ $HOLD == 1 ]]; then
  rm -f "$W/held"
  python3 -c "import ctypes, time; ctypes.CDLL('$cudart').cudaFree(0); open('$W/held', 'w'); time.sleep(3600)" &
  holder=$!
  trap '[[ -n $holder ]] && kill $holder 2>/dev/null' EXIT
  for i in $(seq 100); do [[ -e $W/held ]] && break; sleep 0.1; done
  echo "HOLD=1: a CUDA context held open by process $holder throughout" | tee -a "$table"
fi
echo "process start and exit (apsp --version): median $(median "${v[@]}") s" | tee -a "$table"
v=(); for i in $(seq "$REPEAT"); do
  v+=("$(wall python3 -c "import ctypes; ctypes.CDLL('$cudart').cudaFree(0)")"); done
w=(); for i in $(seq "$REPEAT"); do w+=("$(wall python3 -c "import ctypes")"); done
echo "python3 + cudaFree(0) (the CUDA context): median $(median "${v[@]}") s; python3 alone $(median "${w[@]}") s" |
  tee -a "$table"
for n in $SIZES; do
  G="$W/g$n.bin"
  python3 bench/random_graph.py "$G" "$n" 16
  "$A" info "$G" >/dev/null 2>&1 # page cache warm, as for the timed runs
  IFS=';' read -ra modes <<<"default;$MODES"
  for mode in "${modes[@]}"; do
    v=()
    for i in $(seq "$REPEAT"); do
      rm -f "$W/d.bin"; sync
      case $mode in
        default) v+=("$(wall "$A" solve "$G" -o "$W/d.bin")") ;;
        -*) v+=("$(wall "$A" solve "$G" -o "$W/d.bin" $mode)") ;;
        *) v+=("$(wall env "$mode" "$A" solve "$G" -o "$W/d.bin")") ;;
      esac
    done
    echo "n=$n solve -o d.bin ($mode): median $(median "${v[@]}") s of [${v[*]}]" |
      tee -a "$table"
  done
  rm -f "$W/d.bin"; sync
  APSP_CUDA_VERBOSE=1 APSP_TRACE=1 "$A" solve "$G" -o "$W/d.bin" --json >"$W/json.txt" \
    2>"$W/trace.txt"
  ended=$EPOCHREALTIME
  sed 's/^apsp: trace: */    /' "$W/trace.txt" | tee -a "$table"
  done_at=$(sed -n 's/.*command done.*(realtime \([0-9.]*\)).*/\1/p' "$W/trace.txt")
  [[ -n $done_at ]] && python3 -c "print(f'    exit: {$ended - $done_at:.3f} s from \"command done\" to the end of the process')" |
    tee -a "$table"
  python3 -c "import json; print('    stages', json.load(open('$W/json.txt'))['seconds'])" |
    tee -a "$table"
  rm -f "$W/d.bin" "$G"
done
echo "================ breakdown ================"
cat "$table"

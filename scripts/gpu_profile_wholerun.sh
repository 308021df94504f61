#!/usr/bin/env bash
# Where the whole run's wall time goes (n = 20000 course binary in and out): APSP_TRACE=1
# timestamps and the --json stages, without output, with output (target absent and present)
# and with --map-output. Run after a build.
#   BUILD=build-gpu scripts/gpu_profile_wholerun.sh
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/apsp-gpu}
BUILD=${BUILD:-build-gpu}
W=${WORK:-/tmp/apsp-wholerun}
mkdir -p "$OUT" "$W"
df -h "$W" | tail -1
[[ -f $W/g20000.bin ]] || python3 -c "
import sys; sys.path.insert(0, 'bench/cuda'); import wholerun; wholerun.make_graph('$W/g20000.bin', 20000, 20000)"
A="$BUILD/cli/apsp"
G="$W/g20000.bin"
run() { # label, args...
  local label=$1; shift
  sync
  local s=$EPOCHREALTIME
  APSP_TRACE=1 "$A" "$@" --json 2>"$OUT/trace_$label.txt" >"$OUT/json_$label.txt"
  local rc=$? e=$EPOCHREALTIME
  python3 -c "print(f'{$e - $s:.3f} s wall (rc $rc): $label')"
  sed 's/^apsp: trace: */    /' "$OUT/trace_$label.txt"
  python3 -c "import json; print('    stages', json.load(open('$OUT/json_$label.txt'))['seconds'])"
}
"$A" info "$G" >/dev/null
run no_output solve "$G"
rm -f "$W/d.bin"; run output_fresh solve "$G" -o "$W/d.bin"
run output_overwrite solve "$G" -o "$W/d.bin"
rm -f "$W/d.bin"; run mapped_fresh solve "$G" -o "$W/d.bin" --map-output
run mapped_overwrite solve "$G" -o "$W/d.bin" --map-output
rm -f "$W/d.bin"

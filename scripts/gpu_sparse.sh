#!/usr/bin/env bash
# On a GPU machine, after a build in $BUILD: DE.gr solved both ways, whole runs (wall clock,
# output written): Johnson on the host's cores (cpu back end) and Floyd-Warshall on the GPU,
# then what --algorithm auto picks there and why. Needs DE.gr in $APSP_DATA_DIR (.gpu_data).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/apsp-gpu}
BUILD=${BUILD:-build-gpu}
DATA=${APSP_DATA_DIR:-$PWD/.gpu_data}
W=${WORK:-/tmp/apsp-sparse}
mkdir -p "$OUT" "$W"
A="$BUILD/cli/apsp"
[[ -f $DATA/DE.gr ]] || { echo "gpu_sparse: no DE.gr in $DATA, skipped"; exit 0; }
wall() { local s=$EPOCHREALTIME; "$@" >"$W/last.json" 2>"$W/last.err"; local rc=$? e=$EPOCHREALTIME
  python3 -c "print(f'{$e - $s:.2f} s (rc $rc)')"; }
for how in "--algorithm johnson --backend cpu" "--algorithm fw --backend cuda" "--algorithm auto"; do
  rm -f "$W/de.bin"; sync
  t=$(wall "$A" solve "$DATA/DE.gr" -o "$W/de.bin" $how --json)
  echo "DE.gr $how: whole run $t; $(python3 -c "
import json; j = json.load(open('$W/last.json'))
print('device', j.get('device'), '| algorithm', j.get('algorithm'), '|', j.get('algorithm_reason'), '| sum', j.get('distance_sum'), '| solve', j['seconds']['solve'])" 2>&1 | tail -1)"
done
"$A" info "$DATA/DE.gr" | grep -i -E "algorithm|estimate" | head -5
rm -f "$W/de.bin"

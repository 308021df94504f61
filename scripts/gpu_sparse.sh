#!/usr/bin/env bash
# On a GPU machine, after a build in $BUILD: DE.gr solved every way, whole runs (wall clock,
# course-binary output written): the supernodal Floyd-Warshall and Johnson on the host's cores
# (cpu back end), Floyd-Warshall on the GPU, then what --algorithm auto picks there and why.
# Rows go to $OUT/sparse_gpu_<date>.csv (copy them into bench/results/). Needs DE.gr in
# $APSP_DATA_DIR (.gpu_data).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/apsp-gpu}
BUILD=${BUILD:-build-gpu}
DATA=${APSP_DATA_DIR:-$PWD/.gpu_data}
W=${WORK:-/tmp/apsp-sparse}
COMMIT=${APSP_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
mkdir -p "$OUT" "$W"
A="$BUILD/cli/apsp"
[[ -f $DATA/DE.gr ]] || { echo "gpu_sparse: no DE.gr in $DATA, skipped"; exit 0; }
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
CSV="$OUT/sparse_gpu_$(date -u +%Y-%m-%d).csv"
[[ -f $CSV ]] || echo "date,device,commit,command,graph,n,m,algorithm,whole_seconds,solve_seconds" >"$CSV"
for how in "--algorithm supernodal --backend cpu" "--algorithm johnson --backend cpu" \
           "--algorithm fw --backend cuda" "--algorithm auto"; do
  rm -f "$W/de.bin"; sync
  s=$EPOCHREALTIME
  "$A" solve "$DATA/DE.gr" -o "$W/de.bin" $how --json >"$W/last.json" 2>"$W/last.err"
  rc=$? e=$EPOCHREALTIME
  W_JSON="$W/last.json" python3 - "$s" "$e" "$rc" "$how" "$GPU" "$(nproc)" "$COMMIT" "$CSV" <<'PY'
import csv, datetime, json, os, sys
s, e, rc, how, gpu, cores, commit, out = sys.argv[1:]
j = json.load(open(os.environ["W_JSON"])) if rc == "0" else {}
whole = float(e) - float(s)
algo = j.get("algorithm", "failed")
backend = j.get("backend", "?")
device = f"{gpu} host: {cores} CPU threads" if backend == "cpu" else gpu
label = f"{algo} ({backend}{' ' + cores + ' threads' if backend == 'cpu' else ''})"
if "auto" in how:
    label = "auto -> " + label
print(f"DE.gr {how}: whole run {whole:.2f} s (rc {rc}) | {label} | sum {j.get('distance_sum')} "
      f"| solve {j.get('seconds', {}).get('solve')} | {j.get('algorithm_reason')}")
if rc == "0":
    with open(out, "a", newline="") as f:
        csv.writer(f).writerow([datetime.date.today().isoformat(), device, commit,
                                f"scripts/gpu_sparse.sh: apsp solve DE.gr -o de.bin {how} --json",
                                "DE.gr", j["n"], j["m"], label, f"{whole:.2f}",
                                f"{j['seconds']['solve']:.3f}"])
PY
done
"$A" info "$DATA/DE.gr" | grep -i -E "algorithm|estimate|auto" | head -5
rm -f "$W/de.bin"

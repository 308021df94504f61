#!/usr/bin/env bash
# On a GPU machine, after a build in $BUILD: each road graph of $GRAPHS solved every way, whole
# runs (wall clock, course-binary output written): the supernodal Floyd-Warshall and Johnson on
# the host's cores (cpu back end), Floyd-Warshall on the GPU, then what --algorithm auto picks
# there and why; with PATHS=1 also the fw and auto runs with the path matrix (--paths p.npy).
# Rows go to $OUT/sparse_gpu_<date>.csv (copy them into bench/results/). The graphs live in
# $APSP_DATA_DIR (.gpu_data): DE.gr, and chicago_synthetic.gr from
# bench/sparse/write_synthetic_road.py.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/apsp-gpu}
BUILD=${BUILD:-build-gpu}
DATA=${APSP_DATA_DIR:-$PWD/.gpu_data}
W=${WORK:-/tmp/apsp-sparse}
COMMIT=${APSP_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
mkdir -p "$OUT" "$W"
A="$BUILD/cli/apsp"
GRAPHS=${GRAPHS:-DE.gr chicago_synthetic.gr}
PATHS=${PATHS:-0}
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
CSV="$OUT/sparse_gpu_$(date -u +%Y-%m-%d).csv"
[[ -f $CSV ]] || echo "date,device,commit,command,graph,n,m,algorithm,whole_seconds,solve_seconds" >"$CSV"
for graph in $GRAPHS; do
[[ -f $DATA/$graph ]] || { echo "gpu_sparse: no $graph in $DATA, skipped"; continue; }
hows=("--algorithm supernodal --backend cpu" "--algorithm johnson --backend cpu"
      "--algorithm fw --backend cuda" "--algorithm auto")
[[ $PATHS == 1 ]] && hows+=("--algorithm supernodal --backend cpu --paths $W/p.npy"
                            "--algorithm fw --backend cuda --paths $W/p.npy"
                            "--algorithm auto --paths $W/p.npy")
for how in "${hows[@]}"; do
  rm -f "$W/de.bin" "$W/p.npy"; sync
  s=$EPOCHREALTIME
  "$A" solve "$DATA/$graph" -o "$W/de.bin" $how --json >"$W/last.json" 2>"$W/last.err"
  rc=$? e=$EPOCHREALTIME
  W_JSON="$W/last.json" python3 - "$s" "$e" "$rc" "${how//$W\//}" "$graph" "$GPU" "$(nproc)" "$COMMIT" "$CSV" <<'PY'
import csv, datetime, json, os, sys
s, e, rc, how, graph, gpu, cores, commit, out = sys.argv[1:]
j = json.load(open(os.environ["W_JSON"])) if rc == "0" else {}
whole = float(e) - float(s)
algo = j.get("algorithm", "failed")
backend = j.get("backend", "?")
device = f"{gpu} host: {cores} CPU threads" if backend == "cpu" else gpu
label = f"{algo} ({backend}{' ' + cores + ' threads' if backend == 'cpu' else ''})"
if "auto" in how:
    label = "auto -> " + label
if "--paths" in how:
    label += " + paths"
print(f"{graph} {how}: whole run {whole:.2f} s (rc {rc}) | {label} | sum {j.get('distance_sum')} "
      f"| solve {j.get('seconds', {}).get('solve')} | {j.get('algorithm_reason')}")
if rc == "0":
    with open(out, "a", newline="") as f:
        csv.writer(f).writerow([datetime.date.today().isoformat(), device, commit,
                                f"scripts/gpu_sparse.sh: apsp solve {graph} -o de.bin {how} --json",
                                graph, j["n"], j["m"], label, f"{whole:.2f}",
                                f"{j['seconds']['solve']:.3f}"])
PY
done
"$A" info "$DATA/$graph" | grep -i -E "algorithm|estimate|auto" | head -5
done
rm -f "$W/de.bin" "$W/p.npy"

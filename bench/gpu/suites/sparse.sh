# Road graphs solved every way on the GPU machine.

suite sparse suite_sparse "apsp_cli" \
  "each road graph of GRAPHS (DE.gr chicago_synthetic.gr, from APSP_DATA_DIR) whole runs to a course binary: supernodal and Johnson on the host, fw on the GPU, auto; PATHS=1 adds the path matrix (was gpu_sparse.sh)"
suite_sparse() {
  local A graph how s rc
  A=$(program apsp)
  for graph in ${GRAPHS:-DE.gr chicago_synthetic.gr}; do
    [[ -f $APSP_DATA_DIR/$graph ]] || { note "sparse: no $graph in $APSP_DATA_DIR, skipped"; continue; }
    local hows=("--algorithm supernodal --backend cpu" "--algorithm johnson --backend cpu"
                "--algorithm fw --backend cuda" "--algorithm auto")
    [[ ${PATHS:-0} == 1 ]] && hows+=("--algorithm supernodal --backend cpu --paths $WORK/p.npy"
                                     "--algorithm fw --backend cuda --paths $WORK/p.npy"
                                     "--algorithm auto --paths $WORK/p.npy")
    for how in "${hows[@]}"; do
      rm -f "$WORK/de.bin" "$WORK/p.npy"; sync
      s=$EPOCHREALTIME
      "$A" solve "$APSP_DATA_DIR/$graph" -o "$WORK/de.bin" $how --json >"$WORK/last.json" 2>"$WORK/last.err"
      rc=$?
      local whole
      whole=$(since "$s")
      local label
      label=$(python3 - "$WORK/last.json" "$rc" "$how" "$(nproc)" <<'PY'
import json, sys
path, rc, how, cores = sys.argv[1:]
j = json.load(open(path)) if rc == "0" else {}
algo, backend = j.get("algorithm", "failed"), j.get("backend", "?")
label = f"{algo} ({backend}{' ' + cores + ' threads' if backend == 'cpu' else ''})"
if "auto" in how:
    label = "auto -> " + label
if "--paths" in how:
    label += " + paths"
print(label)
PY
)
      note "$graph ${how//$WORK\//}: whole run $whole s (rc $rc) | $label | solve $(json_stage "$WORK/last.json" solve) | $(grep -o '"algorithm_reason": "[^"]*' "$WORK/last.json" | cut -c22-)"
      if ((rc == 0)); then
        local cmd="apsp solve $graph -o de.bin ${how//$WORK\//} --json" n
        n=$(python3 -c "import json; print(json.load(open('$WORK/last.json'))['n'])")
        row sparse "$graph $label" "$n" whole_seconds "$whole" s "$cmd"
        row sparse "$graph $label" "$n" solve_seconds "$(json_stage "$WORK/last.json" solve)" s "$cmd"
      fi
    done
    "$A" info "$APSP_DATA_DIR/$graph" | grep -i -E "algorithm|estimate|auto" | head -5 | tee -a "$SUMMARY"
  done
  rm -f "$WORK/de.bin" "$WORK/p.npy"
}

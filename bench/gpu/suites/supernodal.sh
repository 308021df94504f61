# The supernodal Floyd-Warshall on the GPU beside the dense cuda engine, Johnson and the cpu
# supernodal solver, on ROME's lattices, DE.gr and road-like graphs (issue 42's benchmark).

suite supernodal suite_supernodal "apsp_cli" \
  "SN_GRAPHS (default: 2D 150^2 180^2, 3D 25^3 30^3, DE.gr, road 100k): each engine of SN_ENGINES (cuda-sn fw-cuda cpu-sn johnson auto; also cuda-sn-rows: by rows over --devices SN_DEVICES (0,1; 0,0 with SN_FORCE_MULTI=1), cuda-sn-ooc: by rows through one GPU capped at SN_OOC_BYTES (8G), cuda-sn-paths: with the path matrix) to a course binary, solve stage and whole run; the GPU steps' stages (APSP_SUPERNODAL_VERBOSE); refuses to run without METIS"
suite_supernodal() {
  local A g how rc s whole name n
  A=$(program apsp)
  if grep -q "METIS not found" "$WORK"/configure_*.log 2>/dev/null; then
    note "supernodal: this build has no METIS (carry .deps/include/metis.h and .deps/lib/libmetis.so*): not run"
    return 1
  fi
  mkdir -p "$WORK/graphs"
  local graphs=()
  for g in ${SN_GRAPHS:-2d150 2d180 3d25 3d30 DE.gr road100k}; do
    case $g in
      2d*) python3 bench/sparse/lattice.py "${g#2d}" "${g#2d}" -o "$WORK/graphs/$g.gr" ;;
      3d*) python3 bench/sparse/lattice.py "${g#3d}" "${g#3d}" "${g#3d}" -o "$WORK/graphs/$g.gr" ;;
      road*) # carried in APSP_DATA_DIR (bench/road_graph.py needs NumPy, which the GPU machines lack)
             if [[ -f $APSP_DATA_DIR/$g.gr ]]; then cp "$APSP_DATA_DIR/$g.gr" "$WORK/graphs/$g.gr"
             else python3 bench/road_graph.py --n "${g#road}" --seed 1 -o "$WORK/graphs/$g.gr" >/dev/null 2>&1 ||
               { note "supernodal: no $g.gr in $APSP_DATA_DIR and road_graph.py failed"; continue; }
             fi ;;
      *) [[ -f $APSP_DATA_DIR/$g ]] || { note "supernodal: no $g in $APSP_DATA_DIR"; continue; }
         cp "$APSP_DATA_DIR/$g" "$WORK/graphs/$g" ;;
    esac
    graphs+=("$g")
  done
  for g in "${graphs[@]}"; do
    local file=$WORK/graphs/$g
    [[ $file == *.gr ]] || file=$file.gr
    [[ -f $file ]] || file=$WORK/graphs/$g
    for name in ${SN_ENGINES:-cuda-sn fw-cuda cpu-sn johnson auto}; do
      local env=()
      case $name in
        cuda-sn) how="--algorithm supernodal --backend cuda" ;;
        cuda-sn-rows) how="--algorithm supernodal --backend cuda --devices ${SN_DEVICES:-0,1}"
                      env=(APSP_CUDA_FORCE_MULTI_GPU=${SN_FORCE_MULTI:-0}) ;;
        cuda-sn-paths) how="--algorithm supernodal --backend cuda --paths $WORK/via.npy" ;;
        cuda-sn-ooc) how="--algorithm supernodal --backend cuda"
                     env=(APSP_CUDA_FORCE_OUT_OF_CORE_BYTES=${SN_OOC_BYTES:-8G}) ;;
        fw-cuda) how="--algorithm fw --backend cuda" ;;
        cpu-sn) how="--algorithm supernodal --backend cpu" ;;
        johnson) how="--algorithm johnson --backend cpu" ;;
        auto) how="" ;;
      esac
      # The engines that take minutes on the larger graphs are left out there.
      n=$(sed -n 's/^p sp \([0-9]*\).*/\1/p' "$file" | head -1)
      if [[ $name == fw-cuda && $n -gt 60000 ]] || [[ $name == johnson && $n -gt 60000 ]]; then
        note "$g $name: skipped (n = $n)"
        continue
      fi
      rm -f "$WORK/out.bin"
      s=$EPOCHREALTIME
      env "${env[@]}" APSP_SUPERNODAL_VERBOSE=1 timeout 300 "$A" solve "$file" -o "$WORK/out.bin" $how --json \
        >"$WORK/sn.json" 2>"$WORK/sn.err"
      rc=$?
      whole=$(since "$s")
      local solve stages
      solve=$(json_stage "$WORK/sn.json" solve)
      stages=$(grep -o "apsp [a-z ]*supernodal:.*" "$WORK/sn.err" | head -1)
      note "$g $name: rc $rc, whole $whole s, solve $solve s | $(grep -o '"driver": "[^"]*' "$WORK/sn.json" | cut -c12-) | $stages"
      ((rc == 0)) || { tail -2 "$WORK/sn.err" | tee -a "$SUMMARY"; continue; }
      cp "$WORK/sn.json" "$WORK/${g}_$name.json"
      local cmd="${env[*]} apsp solve $g -o out.bin $how --json"
      row supernodal "$g $name" "$n" whole_seconds "$whole" s "$cmd"
      row supernodal "$g $name" "$n" solve_seconds "$solve" s "$cmd"
      local steps
      steps=$(grep -o "steps [0-9.]* s" "$WORK/sn.err" | head -1 | awk '{print $2}')
      [[ -n $steps ]] && row supernodal "$g $name" "$n" steps_seconds "$steps" s "APSP_SUPERNODAL_VERBOSE=1 $cmd"
      # Outputs compared where hashing them is quick (the lattices).
      if ((n > 40000)); then
        :
      elif [[ $name == cuda-sn ]]; then
        sha256sum "$WORK/out.bin" | cut -c1-16 >"$WORK/${g}_ref.sum"
      elif [[ -f $WORK/${g}_ref.sum ]]; then
        local same=0
        [[ $(sha256sum "$WORK/out.bin" | cut -c1-16) == $(cat "$WORK/${g}_ref.sum") ]] && same=1
        note "$g $name: output identical to cuda-sn: $same"
        row supernodal "$g $name" "$n" identical_to_cuda_sn "$same" bool "$cmd"
      fi
    done
  done
  rm -f "$WORK/out.bin" "$WORK/via.npy"
}

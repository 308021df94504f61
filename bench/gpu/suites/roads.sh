# apsp metrics on road graphs with the host's CPUs (issue 36's 16-core targets): DE.gr, then
# bench/metrics/road_scaling.py's road-like grids, whose fit is the cost model for larger sizes.

suite roads suite_roads "apsp_cli" \
  "apsp metrics on the host CPUs (--backend cpu, auto: PHAST on these graphs): DE.gr from APSP_DATA_DIR ROAD_DE_REPEAT (3) times, then bench/metrics/road_scaling.py --engines ROAD_ENGINES (johnson) --threads THREADS (all) at ROAD_SIZES (100000,200000,500000), rows with wall s, CPU s and peak RSS; ROAD_FIT=1 (default) notes the fit and its 1M/10M predictions"
suite_roads() {
  local A threads=${THREADS:-$(nproc)} k j t wall rss
  A=$(program apsp)
  if [[ -f $APSP_DATA_DIR/DE.gr ]]; then
    for ((k = 1; k <= ${ROAD_DE_REPEAT:-3}; k++)); do
      j="$WORK/de_$k.json"
      t=$EPOCHREALTIME
      APSP_CPU_PHAST_VERBOSE=1 /usr/bin/time -f "%M" -o "$WORK/rss" "$A" metrics \
        "$APSP_DATA_DIR/DE.gr" --backend cpu --threads "$threads" --json -o "$WORK/de.csv" \
        >"$j" 2>"$WORK/de_$k.err" || { note "roads DE.gr: FAILED $(tail -1 "$WORK/de_$k.err")"; break; }
      wall=$(since "$t")
      rss=$(($(cat "$WORK/rss") * 1024))
      local seconds device
      seconds=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['seconds']['metrics'])" "$j")
      device=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['device'])" "$j")
      note "roads DE.gr run $k: metrics $seconds s, wall $wall s, peak RSS $((rss >> 20)) MiB ($device); $(grep -m1 -i hierarchy "$WORK/de_$k.err")"
      local cmd="apsp metrics DE.gr --backend cpu --threads $threads --json -o de.csv"
      row roads "DE.gr, $threads threads" 49109 wall_seconds "$wall" s "$cmd"
      row roads "DE.gr, $threads threads" 49109 metrics_seconds "$seconds" s "$cmd"
      row roads "DE.gr, $threads threads" 49109 peak_rss "$rss" bytes "$cmd"
    done
  else
    note "roads: no DE.gr in $APSP_DATA_DIR, skipped"
  fi
  local csv="$WORK/road_scaling.csv"
  timeout "${ROAD_TIMEOUT:-540}" python3 bench/metrics/road_scaling.py --apsp "$A" \
    --sizes "${ROAD_SIZES:-100000,200000,500000}" --engines "${ROAD_ENGINES:-johnson}" \
    --threads "$threads" --workdir "$WORK/roads" --csv "$csv" --commit "$APSP_COMMIT" \
    >"$WORK/road_scaling.log" 2>&1
  note "roads road_scaling.py: rc=$?"
  [[ -f $csv ]] || return 1
  # Each run as rows of the common schema: wall s, CPU s, peak RSS.
  while IFS=, read -r n m engine th seconds cpu rss command; do
    row roads "road $engine, $th threads, m=$m" "$n" wall_seconds "$seconds" s "$command"
    row roads "road $engine, $th threads, m=$m" "$n" cpu_seconds "$cpu" s "$command"
    row roads "road $engine, $th threads, m=$m" "$n" peak_rss "$rss" bytes "$command"
    note "roads n=$n m=$m $engine $th threads: $seconds s wall, $cpu s CPU, peak RSS $((rss >> 20)) MiB"
  done < <(python3 - "$csv" <<'EOF'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(",".join([r["n"], r["m"], r["engine"], r["threads"], r["seconds"], r["cpu_seconds"],
                    str(r["peak_rss_bytes"]), r["command"].replace(",", " ")]))
EOF
  )
  if [[ ${ROAD_FIT:-1} == 1 ]]; then
    python3 bench/metrics/road_scaling.py --fit-only --csv "$csv" >"$WORK/road_fit.txt" 2>&1
    tee -a "$SUMMARY" <"$WORK/road_fit.txt"
  fi
  cp "$csv" "$OUT/road_scaling.csv" 2>/dev/null
}

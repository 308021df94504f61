# Out of core and several GPUs in one process: apsp_bench_blocked runs and CLI solves.

# bench_blocked SUITE LABEL TIMEOUT ARGS...: one apsp_bench_blocked run, its rows imported.
bench_blocked() {
  bench_program apsp_bench_blocked "^  (n=|ooc|multi)|^    on|out-of-core:|in-core|rank times" "$@"
}

suite ooc suite_ooc "apsp_bench_blocked" \
  "out of core on one GPU: APSP_CUDA_VERBOSE=1 apsp_bench_blocked --ooc OOC_BENCH (40000:2G) (was gpu_final.sh bench, gpu_check.sh ooc)"
suite_ooc() {
  APSP_CUDA_VERBOSE=1 bench_blocked ooc ooc 300 --ooc "${OOC_BENCH:-40000:2G}"
}

suite ooc-big suite_ooc_big "apsp_bench_blocked" \
  "out of core with the matrix larger than the GPU: APSP_CUDA_VERBOSE=1 apsp_bench_blocked --big-ooc BIG_N (160000; needs host RAM > 1.25x GPU memory) (was gpu_big_ooc.sh)"
suite_ooc_big() {
  free -g | head -2 | tee -a "$SUMMARY"
  APSP_CUDA_VERBOSE=1 bench_blocked ooc-big big "${BIG_TIMEOUT:-590}" --big-ooc "${BIG_N:-160000}"
}

suite multi suite_multi "apsp_bench_blocked" \
  "two GPUs in one process: APSP_CUDA_VERBOSE=1 apsp_bench_blocked --multi MULTI_SIZES (40000,80000) --devices 0,1 (was gpu_check.sh multi, gpu_two_h200.sh, gpu_two_gpu_targets.sh)"
suite_multi() {
  APSP_CUDA_VERBOSE=1 bench_blocked multi multi 420 --multi "${MULTI_SIZES:-40000,80000}" --devices 0,1
}

suite multi-ooc suite_multi_ooc "apsp_bench_blocked" \
  "out of core on two GPUs against one: apsp_bench_blocked --multi-ooc MULTI_OOC (40000:2G,80000:8G) --devices 0,1 (was gpu_multi_ooc.sh, gpu_two_h200.sh)"
suite_multi_ooc() {
  bench_blocked multi-ooc multi_ooc 400 --multi-ooc "${MULTI_OOC:-40000:2G,80000:8G}" --devices 0,1
}

suite headline suite_headline "apsp_cli" \
  "n = 140,000 (20 out-edges per vertex, int32) on --devices 0,1 with --progress, solve stage and whole run (was gpu_two_h200.sh)"
suite_headline() {
  local g="$WORK/fly140k.bin" A start rc
  A=$(program apsp)
  sparse_graph "$g" 140000
  start=$EPOCHREALTIME
  timeout 280 "$A" solve "$g" --devices 0,1 --progress --json >"$WORK/headline.json" \
    2>"$WORK/headline_progress.log"
  rc=$?
  local whole
  whole=$(since "$start")
  rm -f "$g"
  note "headline rc=$rc wall $whole s; progress lines: $(grep -c 'apsp: round' "$WORK/headline_progress.log")"
  head -3 "$WORK/headline_progress.log" | tee -a "$SUMMARY"
  tail -2 "$WORK/headline_progress.log" | tee -a "$SUMMARY"
  ((rc == 0)) || return 1
  local cmd="apsp solve fly140k.bin --devices 0,1 --progress --json"
  row headline "--devices 0,1" 140000 solve_seconds "$(json_stage "$WORK/headline.json" solve)" s "$cmd"
  row headline "--devices 0,1" 140000 whole_seconds "$whole" s "$cmd"
}

suite split suite_split "apsp_cli" \
  "CLI solves from a fresh output with APSP_CUDA_RANK_TIMES=1, each of SPLIT_RUNS (graph:n:devices; default dense:40000:0 dense:40000:0,1 sparse:40000:0 sparse:40000:0,1; dense = n^2/16 arcs, sparse = 20 per vertex), --algorithm fw; the split's output compared with one GPU's (was gpu_split_ab.sh, gpu_staging_size.sh)"
suite_split() {
  local A spec graph n devices g
  A=$(program apsp)
  for spec in ${SPLIT_RUNS:-dense:40000:0 dense:40000:0,1 sparse:40000:0 sparse:40000:0,1}; do
    IFS=: read -r graph n devices <<<"$spec"
    g="$WORK/$graph$n.bin"
    if [[ ! -f $g ]]; then
      if [[ $graph == sparse ]]; then sparse_graph "$g" "$n"; else python3 bench/random_graph.py "$g" "$n"; fi
    fi
    local cmd="${AB_ENV_SHOWN:+$AB_ENV_SHOWN }apsp solve $graph$n.bin -o d.bin --devices $devices --algorithm fw --json"
    timed_solve "$A" "$g" "$WORK/d.bin" --devices "$devices" --algorithm fw ||
      { note "split $graph$n --devices $devices${VARIANT:+ [$VARIANT]} FAILED"; continue; }
    note "split $graph$n --devices $devices${VARIANT:+ [$VARIANT]}: solve $SOLVE_S s, whole $WHOLE_S s $RANK_TIMES"
    row split "$graph devices $devices" "$n" solve_seconds "$SOLVE_S" s "$cmd"
    row split "$graph devices $devices" "$n" whole_seconds "$WHOLE_S" s "$cmd"
    if [[ $devices == 0 ]]; then
      mv "$WORK/d.bin" "$WORK/one_$graph$n.bin"
    elif [[ -f $WORK/one_$graph$n.bin ]] && ! cmp -s "$WORK/d.bin" "$WORK/one_$graph$n.bin"; then
      note "split $graph$n --devices $devices: output differs from one GPU"
    fi
  done
  rm -f "$WORK/d.bin"
}

suite devices suite_devices "apsp_cli" \
  "whole runs apsp solve gN.bin -o d.bin --devices 0 against --devices all, alternating, median of REPEAT (3), n in DEVICES_SIZES (5000 10000 20000 30000 40000; n^2/16 arcs) (was gpu_two_gpu_targets.sh)"
suite_devices() {
  local A n mode round start med
  A=$(program apsp)
  for n in ${DEVICES_SIZES:-5000 10000 20000 30000 40000}; do
    python3 bench/random_graph.py "$WORK/g$n.bin" "$n"
    for mode in 0 all; do : >"$WORK/t_${n}_$mode"; done
    for round in $(seq "${REPEAT:-3}"); do
      for mode in 0 all; do
        rm -f "$WORK/d.bin"
        sync
        start=$EPOCHREALTIME
        "$A" solve "$WORK/g$n.bin" -o "$WORK/d.bin" --devices "$mode" --json >"$WORK/w_${n}_$mode.json" \
          2>"$WORK/w_${n}_$mode.err" || note "n=$n --devices $mode FAILED: $(tail -1 "$WORK/w_${n}_$mode.err")"
        since "$start" >>"$WORK/t_${n}_$mode"
        if [[ $mode == 0 ]]; then
          mv "$WORK/d.bin" "$WORK/d_one.bin"
        elif ! cmp -s "$WORK/d.bin" "$WORK/d_one.bin"; then
          note "n=$n --devices all: output differs from one GPU"
        fi
      done
    done
    for mode in 0 all; do
      med=$(sort -n "$WORK/t_${n}_$mode" | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
      note "n=$n --devices $mode: whole $med s (runs $(tr '\n' ' ' <"$WORK/t_${n}_$mode")) $(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(j.get('device',''), 'solve', j['seconds']['solve'])" "$WORK/w_${n}_$mode.json" 2>/dev/null)"
      row devices "devices $mode" "$n" whole_seconds "$med" s \
        "apsp solve g$n.bin -o d.bin --devices $mode (n^2/16 edges, median of ${REPEAT:-3}, alternating, fresh target)"
    done
    rm -f "$WORK/g$n.bin" "$WORK/d.bin" "$WORK/d_one.bin"
  done
}

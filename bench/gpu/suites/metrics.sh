# apsp metrics on the GPU (issue 36): metrics_cuda_test, then `apsp metrics --backend cuda` (the
# matrix reduced on the GPU) beside Dijkstra batches on the host CPUs on the same graph, with the
# per-vertex CSVs compared.

suite metrics suite_metrics "metrics_cuda_test apsp_cli" \
  "metrics_cuda_test, then apsp metrics G --backend cuda (reduced on the GPU) at METRICS_SIZES (20000 60000) on random graphs with 20 out-edges a vertex, beside --backend cpu --algorithm johnson (METRICS_CPU=1) with the CSVs compared; METRICS_SIZES=140000 METRICS_CPU=0 is the fly-brain size; METRICS_HOWS sets the GPU runs' options (';' between runs, e.g. '--backend cuda --devices 0,1,2,3'), METRICS_SOLVE=1 adds apsp solve with the same options writing the matrix (.npy), METRICS_RANKS=R adds mpirun -np R apsp metrics --backend cuda (GPU ranks reducing on their devices), compared with the last GPU run's CSV"
suite_metrics() {
  local A n how tag t j log
  A=$(program apsp)
  log="$WORK/metrics_cuda_test.log"
  timeout 300 "$(program metrics_cuda_test)" --gtest_brief=1 >"$log" 2>&1
  note "metrics_cuda_test: rc=$? $(gtest_line "$log")"
  for n in ${METRICS_SIZES:-20000 60000}; do
    sparse_graph "$WORK/g$n.bin" "$n"
    local hows=("--backend cuda") extra
    if [[ -n ${METRICS_HOWS:-} ]]; then # solver options, ';' between runs
      IFS=';' read -ra hows <<<"$METRICS_HOWS"
    fi
    [[ ${METRICS_CPU:-1} == 1 ]] && hows+=("--backend cpu --algorithm johnson")
    for how in "${hows[@]}"; do
      tag=${how//[^a-z]/_}
      j="$WORK/metrics_${n}_$tag.json"
      t=$EPOCHREALTIME
      /usr/bin/time -f "%M" -o "$WORK/rss" "$A" metrics "$WORK/g$n.bin" $how --json \
        -o "$WORK/metrics_${n}_$tag.csv" >"$j" 2>"$WORK/metrics_${n}_$tag.err" ||
        { note "metrics n=$n $how: FAILED $(tail -1 "$WORK/metrics_${n}_$tag.err")"; continue; }
      local wall seconds driver rss
      wall=$(since "$t")
      seconds=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['seconds']['metrics'])" "$j")
      driver=$(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(j['driver'], '(host matrix)' if j['host_matrix'] else '(no host matrix)')" "$j")
      rss=$(($(cat "$WORK/rss") * 1024))
      note "metrics n=$n $how: $seconds s ($driver), wall $wall s, peak RSS $((rss >> 20)) MiB"
      row metrics "$how" "$n" metrics_seconds "$seconds" s "apsp metrics g$n.bin $how --json -o m.csv"
      row metrics "$how" "$n" peak_rss "$rss" bytes "apsp metrics g$n.bin $how --json -o m.csv"
    done
    if [[ -n ${METRICS_RANKS:-} ]]; then
      # GPU ranks (each reduces its tiles on its device): wall s and each rank's peak RSS.
      local r=$METRICS_RANKS
      j="$WORK/metrics_${n}_ranks$r.json"
      t=$EPOCHREALTIME
      rm -f "$WORK"/rss_rank*
      mpirun -np "$r" --bind-to none bash -c '/usr/bin/time -f %M -o "$0.$OMPI_COMM_WORLD_RANK" "$@"' \
        "$WORK/rss_rank" "$A" metrics "$WORK/g$n.bin" --backend cuda --json -o "$WORK/metrics_${n}_ranks$r.csv" \
        >"$j" 2>"$WORK/metrics_${n}_ranks$r.err" ||
        { note "metrics n=$n $r GPU ranks: FAILED $(tail -1 "$WORK/metrics_${n}_ranks$r.err")"; }
      if [[ -s $j ]]; then
        local wall seconds rss
        wall=$(since "$t")
        seconds=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['seconds']['metrics'])" "$j")
        rss=$(cat "$WORK"/rss_rank* 2>/dev/null | sort -n | tail -1)
        note "metrics n=$n $r GPU ranks: $seconds s, wall $wall s, largest rank peak RSS $((${rss:-0} >> 10)) MiB; $(python3 "$DRIVER_DIR/rows.py" compare-tables "$WORK/metrics_${n}_ranks$r.csv" "$WORK/metrics_${n}_${tag}.csv" 2>&1 | tail -1)"
        row metrics "mpirun -np $r --backend cuda" "$n" metrics_seconds "$seconds" s "mpirun -np $r --bind-to none apsp metrics g$n.bin --backend cuda --json -o m.csv"
        row metrics "mpirun -np $r --backend cuda" "$n" peak_rss_largest_rank "$((${rss:-0} * 1024))" bytes "mpirun -np $r --bind-to none apsp metrics g$n.bin --backend cuda --json -o m.csv"
      fi
    fi
    if [[ ${METRICS_SOLVE:-0} == 1 ]]; then
      # The same solve with the matrix written (.npy), for each GPU way of METRICS_HOWS.
      for how in "${hows[@]}"; do
        [[ $how == *cuda* ]] || continue
        j="$WORK/solve_${n}.json"
        t=$EPOCHREALTIME
        "$A" solve "$WORK/g$n.bin" $how --json -o "$WORK/d$n.npy" >"$j" 2>"$WORK/solve_$n.err" ||
          { note "solve n=$n $how: FAILED $(tail -1 "$WORK/solve_$n.err")"; rm -f "$WORK/d$n.npy"; continue; }
        local total wall
        wall=$(since "$t")
        total=$(python3 -c "import json,sys; print(round(sum(json.load(open(sys.argv[1]))['seconds'].values()), 3))" "$j")
        note "solve n=$n $how -o d.npy: $total s ($(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['seconds'])" "$j")), wall $wall s, file $(($(stat -c %s "$WORK/d$n.npy") >> 30)) GiB"
        row metrics "solve $how -o d.npy" "$n" solve_seconds "$total" s "apsp solve g$n.bin $how --json -o d.npy"
        rm -f "$WORK/d$n.npy"
      done
    fi
    if [[ ${METRICS_CPU:-1} == 1 ]]; then
      note "metrics n=$n: $(python3 "$DRIVER_DIR/rows.py" compare-tables \
        "$WORK/metrics_${n}___backend_cuda.csv" "$WORK/metrics_${n}___backend_cpu___algorithm_johnson.csv")"
    fi
    rm -f "$WORK/g$n.bin"
  done
}

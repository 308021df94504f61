# PHAST's sweeps on the GPU (issue 45, drivers::cuda_phast) against the cpu: on bench/road_graph.py
# graphs, `apsp metrics --backend cuda` beside `--backend cpu` (PHAST on the host's CPUs), and
# apsp_bench_phast's table on the GPU beside the cpu's bucket table from the same hierarchy;
# and `apsp solve --sources --targets` (RPHAST's table, drivers::cuda_table) with --backend cuda
# beside --backend cpu, the two tables compared byte for byte.

suite phast suite_phast "apsp_cli apsp_bench_phast" \
  "PHAST_GRAPHS (road100k road500k; carried in APSP_DATA_DIR, else bench/road_graph.py --seed 1): apsp metrics --backend cuda and --backend cpu (the cpu's on graphs of at most PHAST_CPU_METRICS_MAX vertices, 200000), metrics and wall seconds; then apsp_bench_phast: a PHAST_TABLE (10000x10000) table on the GPU (twice) and by the cpu's buckets, cells compared, and PHAST_ROWS (1000) full rows on the GPU; then on PHAST_CLI_GRAPHS (road500k) apsp solve --sources @S --targets @T (PHAST_TABLE, random ids) --backend cuda and --backend cpu -o .npy, solve seconds, driver, tables compared; THREADS (all) cpu threads"
suite_phast() {
  local A B threads=${THREADS:-$(nproc)} g file n how j t wall seconds shape
  A=$(program apsp)
  B=$(program apsp_bench_phast)
  mkdir -p "$WORK/graphs"
  shape=${PHAST_TABLE:-10000x10000}
  for g in ${PHAST_GRAPHS:-road100k road500k}; do
    file=$WORK/graphs/$g.gr
    if [[ -f $APSP_DATA_DIR/$g.gr ]]; then cp "$APSP_DATA_DIR/$g.gr" "$file"
    elif ! python3 bench/road_graph.py --n "${g#road}" --seed 1 -o "$file" >/dev/null 2>&1; then
      note "phast: no $g.gr in $APSP_DATA_DIR and road_graph.py failed"; continue
    fi
    n=$(sed -n 's/^p sp \([0-9]*\).*/\1/p' "$file" | head -1)
    for how in cuda cpu; do
      if [[ $how == cpu && $n -gt ${PHAST_CPU_METRICS_MAX:-200000} ]]; then
        note "phast $g metrics --backend cpu: skipped (n = $n)"
        continue
      fi
      j="$WORK/phast_${g}_$how.json"
      t=$EPOCHREALTIME
      timeout "${PHAST_TIMEOUT:-300}" "$A" metrics "$file" --backend "$how" --threads "$threads" \
        --json -q >"$j" 2>"$j.err" || { note "phast $g metrics --backend $how: FAILED $(tail -1 "$j.err")"; continue; }
      wall=$(since "$t")
      seconds=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['seconds']['metrics'])" "$j")
      note "phast $g metrics --backend $how: metrics $seconds s, wall $wall s ($(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d.get('driver', d.get('plan', {}).get('driver', '')))" "$j"))"
      local cmd="apsp metrics $g.gr --backend $how --threads $threads --json -q"
      row phast "$g metrics --backend $how, $threads threads" "$n" metrics_seconds "$seconds" s "$cmd"
      row phast "$g metrics --backend $how, $threads threads" "$n" wall_seconds "$wall" s "$cmd"
    done
    bench_program apsp_bench_phast "phast bench" phast "$g" "${PHAST_TIMEOUT:-300}" "$file" \
      --sources "${shape%x*}" --targets "${shape#*x}" --rows "${PHAST_ROWS:-1000}" \
      --threads "$threads" --lanes "${PHAST_LANES:-256}"
    if [[ " ${PHAST_CLI_GRAPHS:-road500k} " == *" $g "* ]]; then
      phast_cli_table "$A" "$g" "$file" "$n" "$shape" "$threads"
    fi
  done
}

# apsp solve's table (RPHAST: drivers::cuda_table under --backend cuda, the cpu's engines
# under --backend cpu) of random sources and targets (1-based DIMACS ids, python3's random:
# no NumPy here), solve seconds and driver of each, the two .npy files compared byte for byte.
phast_cli_table() {
  local A=$1 g=$2 file=$3 n=$4 shape=$5 threads=$6 how j t wall seconds driver cmd
  local S="$WORK/phast_${g}_sources.txt" T="$WORK/phast_${g}_targets.txt"
  python3 -c "import random,sys; r=random.Random(int(sys.argv[3])); n=int(sys.argv[1]); print('\n'.join(str(r.randint(1, n)) for _ in range(int(sys.argv[2]))))" "$n" "${shape%x*}" 1 >"$S"
  python3 -c "import random,sys; r=random.Random(int(sys.argv[3])); n=int(sys.argv[1]); print('\n'.join(str(r.randint(1, n)) for _ in range(int(sys.argv[2]))))" "$n" "${shape#*x}" 2 >"$T"
  for how in cuda cpu; do
    j="$WORK/phast_${g}_table_$how.json"
    t=$EPOCHREALTIME
    timeout "${PHAST_TIMEOUT:-300}" "$A" solve "$file" --sources "@$S" --targets "@$T" \
      --backend "$how" --threads "$threads" -o "$WORK/phast_${g}_table_$how.npy" --json -q \
      >"$j" 2>"$j.err" || { note "phast $g table --backend $how: FAILED $(tail -1 "$j.err")"; continue; }
    wall=$(since "$t")
    seconds=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['seconds']['solve'])" "$j")
    driver=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['driver'])" "$j")
    note "phast $g table $shape --backend $how: solve $seconds s, wall $wall s ($driver)"
    cmd="apsp solve $g.gr --sources @S --targets @T --backend $how --threads $threads -o d.npy --json -q"
    row phast "$g table $shape --backend $how" "$n" solve_seconds "$seconds" s "$cmd"
    row phast "$g table $shape --backend $how" "$n" wall_seconds "$wall" s "$cmd"
  done
  if cmp -s "$WORK/phast_${g}_table_cuda.npy" "$WORK/phast_${g}_table_cpu.npy"; then
    note "phast $g table $shape: cuda and cpu tables equal byte for byte"
  else
    note "phast $g table $shape: cuda and cpu tables DIFFER (or one is missing)"
  fi
}

suite phast-tests suite_phast_tests "cuda_phast_test cuda_rphast_test gpu_sweep_plan_test" \
  "the GPU sweeps' tests alone (ctest -R 'cuda_phast_test|cuda_rphast_test|gpu_sweep_plan_test'), then compute-sanitizer memcheck and racecheck on CudaPhast.SmallAndEmptySets and the grid tables, memcheck on CudaRphast.SmallEmptyAndRepeatedSets"
suite_phast_tests() {
  local log="$WORK/ctest_phast.log" t0=$EPOCHREALTIME bin
  (cd "$BUILD" && timeout "${CTEST_TIMEOUT:-400}" ctest -R 'cuda_phast_test|cuda_rphast_test|gpu_sweep_plan_test' \
    --output-on-failure >"$log" 2>&1)
  note "ctest phast: rc=$? in $(since "$t0") s"
  ctest_counts phast-tests "ctest -R cuda_phast_test|cuda_rphast_test|gpu_sweep_plan_test" "$log" \
    "ctest -R 'cuda_phast_test|cuda_rphast_test|gpu_sweep_plan_test'"
  bin=$(program cuda_phast_test)
  [[ -n $bin ]] || return 1
  sanitizer phast-tests memcheck "$bin" 'CudaPhast.SmallAndEmptySets:CudaPhast.TablesAndRowsAreDijkstras'
  sanitizer phast-tests racecheck "$bin" 'CudaPhast.SmallAndEmptySets'
  bin=$(program cuda_rphast_test)
  [[ -n $bin ]] && sanitizer phast-tests memcheck "$bin" 'CudaRphast.SmallEmptyAndRepeatedSets'
  return 0
}

# The cpu back end on the GPU machine's host CPU (the auto back end sends small graphs there).

# host_peak THREADS [SECONDS]: the int32 min-plus peak, updates/s.
host_peak() {
  "$BUILD/bench/cpu/cpu_minplus_peak" "${2:-0.5}" "$1" | awk '/peak_updates_per_s/ { print $2 }'
}

suite cpu-host suite_cpu_host "cpu_time_solve cpu_minplus_peak" \
  "the host's int32 min-plus peak on THREADS (all) threads, then cpu_time_solve --dtype int32 rounds of random graphs (n^2/10 arcs) at CPU_SIZES (1000 2000 3000 4000), best of CPU_REPEAT (3), as % of that peak; ONE_THREAD=1 adds n = 1000, 2000 on one thread; CPU_PROFILE=1 adds each run's thread-time shares (was gpu_host_cpu.sh, gpu_host_cpu_ab.sh)"
suite_cpu_host() {
  local threads=${THREADS:-$(nproc)} peak peak1 n
  peak=$(host_peak "$threads")
  note "host: $CPU_NAME, $threads threads; int32 min-plus peak $peak/s"
  row cpu-host "int32 min-plus peak, $threads threads" "" updates_per_s "$peak" updates/s \
    "cpu_minplus_peak 0.5 $threads"
  one() { # n threads peak
    local line r share env=()
    [[ ${CPU_PROFILE:-0} == 1 ]] && env=(APSP_CPU_PROFILE=1)
    line=$(env "${env[@]}" "$BUILD/bench/cpu/cpu_time_solve" "$WORK/g$1.bin" --dtype int32 \
      --threads "$2" --repeat "${CPU_REPEAT:-3}" 2>"$WORK/prof.txt")
    echo "$line" >>"$WORK/host_cpu_runs.txt"
    r=$(echo "$line" | sed -n 's/.*rounds_seconds=\([0-9.]*\).*/\1/p')
    [[ -z $r ]] && { note "n=$1 t=$2: FAILED"; return; }
    share=$(grep "share of thread time" "$WORK/prof.txt" | tail -1 | sed 's/.*time: //')
    { echo "== ${VARIANT:-} n=$1 threads=$2"; cat "$WORK/prof.txt"; } >>"$WORK/host_cpu_profiles.txt"
    note "$(python3 -c "n=$1; r=$r; p=$3; print(f'n={n} t=$2${VARIANT:+ [$VARIANT]} int32 rounds {r:.4f} s  {n**3/r:.3e}/s  {100*n**3/r/p:.1f} % of peak')") ${share:+| $share}"
    local cmd="${AB_ENV_SHOWN:+$AB_ENV_SHOWN }cpu_time_solve g$1.bin --dtype int32 --threads $2 --repeat ${CPU_REPEAT:-3} (n^2/10 arcs, best of ${CPU_REPEAT:-3})"
    row cpu-host "cpu-int32-rounds, $2 threads" "$1" seconds "$r" s "$cmd"
    row cpu-host "cpu-int32-rounds, $2 threads" "$1" pct_peak "$(python3 -c "print(f'{100*$1**3/$r/$3:.1f}')")" % "$cmd"
  }
  for n in ${CPU_SIZES:-1000 2000 3000 4000}; do
    [[ -f $WORK/g$n.bin ]] || python3 bench/random_graph.py "$WORK/g$n.bin" "$n" 10
    one "$n" "$threads" "$peak"
  done
  if [[ ${ONE_THREAD:-0} == 1 ]]; then
    peak1=$(host_peak 1)
    row cpu-host "int32 min-plus peak, 1 threads" "" updates_per_s "$peak1" updates/s "cpu_minplus_peak 0.5 1"
    for n in 1000 2000; do
      [[ -f $WORK/g$n.bin ]] || python3 bench/random_graph.py "$WORK/g$n.bin" "$n" 10
      one "$n" 1 "$peak1"
    done
  fi
}

suite cpu-threads suite_cpu_threads "cpu_time_solve cpu_minplus_peak" \
  "the host against its thread count: lscpu, the peak on 8 and 16 threads, int32 rounds at n = 1000, 2000 (n^2/10 arcs) with 4, 8, 12, 16 threads, best of 7, two rounds (was gpu_host_threads.sh)"
suite_cpu_threads() {
  local t n round line r
  lscpu | grep -E 'Model name|^CPU\(s\)|Thread|Core|Socket|NUMA node\(s\)|L2|L3' | tee -a "$SUMMARY"
  for t in 8 16; do
    r=$(host_peak "$t")
    note "peak threads=$t: $r"
    row cpu-threads "int32 min-plus peak, $t threads" "" updates_per_s "$r" updates/s "cpu_minplus_peak 0.5 $t"
  done
  for n in 1000 2000; do
    python3 bench/random_graph.py "$WORK/g$n.bin" "$n" 10
    for round in 1 2; do
      for t in 4 8 12 16; do
        line=$("$BUILD/bench/cpu/cpu_time_solve" "$WORK/g$n.bin" --dtype int32 --threads $t --repeat 7)
        r=$(echo "$line" | sed -n 's/.*rounds_seconds=\([0-9.]*\).*/\1/p')
        note "n=$n threads=$t round=$round rounds_seconds=$r"
        row cpu-threads "cpu-int32-rounds, $t threads" "$n" seconds "$r" s \
          "cpu_time_solve g$n.bin --dtype int32 --threads $t --repeat 7 (round $round)"
      done
    done
  done
}

suite cpu-tiles suite_cpu_tiles "cpu_tile_rate cpu_minplus_peak" \
  "how evenly the host's cores run the tile product: ROUNDS (3) x the peak on THREADS and one thread, cpu_tile_rate on 1 and THREADS threads (own and fresh operands), BLOCK (96), N (1000) (was gpu_host_tile_rate.sh)"
suite_cpu_tiles() {
  local threads=${THREADS:-$(nproc)} block=${BLOCK:-96} n=${N:-1000} each=${SECONDS_EACH:-0.3}
  local round peak peak1 run t fresh p out line native="$WORK/cpu_tile_rate${VARIANT_TAG:+_$VARIANT_TAG}.csv"
  local B="$BUILD/bench/cpu"
  echo "date,device,commit,command,threads,block,n,fresh,median_us,fastest_us,slowest_us,half_speed_threads,updates_per_s,pct_peak" >"$native"
  get() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
  for round in $(seq "${ROUNDS:-3}"); do
    peak=$(host_peak "$threads" "$each")
    peak1=$(host_peak 1 "$each")
    note "round $round: int32 min-plus peak $peak/s on $threads threads, $peak1/s on one"
    for run in "1 0" "$threads 0" "$threads 1"; do
      read -r t fresh <<<"$run"
      p=$peak
      [[ $t == 1 ]] && p=$peak1
      out=$("$B/cpu_tile_rate" "$t" "$each" "$block" "$n" 6 "$fresh")
      echo "$out" >>"$WORK/cpu_tile_rate.txt"
      line=$(echo "$out" | head -1)
      local rate pct
      rate=$(echo "$line" | get updates_per_s)
      pct=$(python3 -c "print(f'{100 * $rate / $p:.1f}')")
      note "  threads=$t fresh=$fresh: $(echo "$line" | get median_us) us per tile (fastest $(echo "$line" | get fastest_us), slowest $(echo "$line" | get slowest_us), $(echo "$line" | get half_speed_threads) at half speed), $rate/s = $pct % of the peak"
      echo "$DATE,\"$CPU_NAME ($t threads)\",${VARIANT_COMMIT:-$APSP_COMMIT},\"cpu_tile_rate $t $each $block $n 6 $fresh (round $round)\",$t,$block,$n,$fresh,$(echo "$line" | get median_us),$(echo "$line" | get fastest_us),$(echo "$line" | get slowest_us),$(echo "$line" | get half_speed_threads),$rate,$pct" >>"$native"
    done
  done
  import_csv cpu-tiles "$native" threads,fresh,block
}

#!/usr/bin/env bash
# One call on a GPU machine's host (or any machine): how evenly its cores run the cpu back end's
# tile product. Builds cpu_tile_rate and cpu_minplus_peak (scripts/cpu_bench_build.sh, in $WORK), then
# $ROUNDS times: the int32 min-plus peak on $THREADS threads and on one, and the tile product
# (block $BLOCK, c stride $N) on one thread, on $THREADS threads with operands of their own, and
# on $THREADS threads reading operands another core just wrote (fresh). Rows (date, device,
# commit, command, threads, block, n, fresh, median / fastest / slowest thread's us per tile,
# threads at half speed, updates/s, % of the peak measured just before) to
# $OUT/cpu_tile_rate.csv, the per-thread lines to $OUT/cpu_tile_rate.txt.
#   THREADS=16 ROUNDS=3 scripts/gpu_host_tile_rate.sh
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/apsp-gpu}
W=${WORK:-/tmp/apsp-tile-rate}
THREADS=${THREADS:-$(nproc)}
ROUNDS=${ROUNDS:-3}
BLOCK=${BLOCK:-96}
N=${N:-1000}
SECONDS_EACH=${SECONDS_EACH:-0.3}
COMMIT=${APSP_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
mkdir -p "$OUT" "$W"
csv="$OUT/cpu_tile_rate.csv"
log="$OUT/cpu_tile_rate.txt"
[[ -f $csv ]] || echo "date,device,commit,command,threads,block,n,fresh,median_us,fastest_us,slowest_us,half_speed_threads,updates_per_s,pct_peak" >"$csv"
scripts/cpu_bench_build.sh . "$W/b" cpu_tile_rate cpu_minplus_peak ||
  { echo "build failed"; tail -20 "$W/b.build.log"; exit 1; }
B="$W/b/bench/cpu"
cpu=$(lscpu | sed -n 's/^Model name: *//p')
command="THREADS=$THREADS ROUNDS=$ROUNDS BLOCK=$BLOCK N=$N scripts/gpu_host_tile_rate.sh"
get() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
for round in $(seq "$ROUNDS"); do
  peak=$("$B/cpu_minplus_peak" "$SECONDS_EACH" "$THREADS" | awk '/peak_updates_per_s/ { print $2 }')
  peak1=$("$B/cpu_minplus_peak" "$SECONDS_EACH" 1 | awk '/peak_updates_per_s/ { print $2 }')
  echo "round $round: int32 min-plus peak $peak/s on $THREADS threads, $peak1/s on one" | tee -a "$log"
  for run in "1 0" "$THREADS 0" "$THREADS 1"; do
    read -r t fresh <<<"$run"
    p=$peak
    [[ $t == 1 ]] && p=$peak1
    out=$("$B/cpu_tile_rate" "$t" "$SECONDS_EACH" "$BLOCK" "$N" 6 "$fresh")
    echo "$out" >>"$log"
    line=$(echo "$out" | head -1)
    rate=$(echo "$line" | get updates_per_s)
    pct=$(python3 -c "print(f'{100 * $rate / $p:.1f}')")
    echo "  threads=$t fresh=$fresh: $(echo "$line" | get median_us) us per tile (fastest $(echo "$line" | get fastest_us), slowest $(echo "$line" | get slowest_us), $(echo "$line" | get half_speed_threads) at half speed), $rate/s = $pct % of the peak" | tee -a "$log"
    echo "$(date -u +%F),\"$cpu ($t threads)\",$COMMIT,\"$command\",$t,$BLOCK,$N,$fresh,$(echo "$line" | get median_us),$(echo "$line" | get fastest_us),$(echo "$line" | get slowest_us),$(echo "$line" | get half_speed_threads),$rate,$pct" >>"$csv"
  done
done

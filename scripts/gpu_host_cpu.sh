#!/usr/bin/env bash
# The cpu back end on a GPU machine's host (the auto back end sends small graphs there): the
# host's int32 min-plus peak on all its threads, then the int32 rounds of random graphs
# (n^2/10 edges, weights 1..1000) at n = $SIZES, best of $REPEAT (3), as a percentage of that
# peak.
# Run after a build with benchmarks ($BUILD/bench/cpu); logs and a table under $OUT.
#   SIZES="1000 2000 3000 4000" BUILD=build-gpu scripts/gpu_host_cpu.sh
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/apsp-gpu}
BUILD=${BUILD:-build-gpu}
W=${WORK:-/tmp/apsp-host-cpu}
THREADS=${THREADS:-$(nproc)}
mkdir -p "$OUT" "$W"
peak=$("$BUILD/bench/cpu/cpu_minplus_peak" 0.5 "$THREADS" | tee "$OUT/host_cpu_peak.txt" |
  awk '/peak_updates_per_s/ { print $2 }')
echo "host: $(lscpu | sed -n 's/^Model name: *//p'), $THREADS threads; int32 min-plus peak $peak/s" |
  tee "$OUT/host_cpu.txt"
for n in ${SIZES:-1000 2000 3000 4000}; do
  python3 bench/random_graph.py "$W/g$n.bin" "$n" 10
  line=$("$BUILD/bench/cpu/cpu_time_solve" "$W/g$n.bin" --dtype int32 --threads "$THREADS" \
    --repeat "${REPEAT:-3}")
  echo "$line" >>"$OUT/host_cpu_runs.txt"
  r=$(echo "$line" | sed -n 's/.*rounds_seconds=\([0-9.]*\).*/\1/p')
  python3 -c "n=$n; r=$r; p=$peak; print(f'n={n} int32 rounds {r:.4f} s  {n**3/r:.3e}/s  {100*n**3/r/p:.1f} % of peak')" |
    tee -a "$OUT/host_cpu.txt"
  rm -f "$W/g$n.bin"
done

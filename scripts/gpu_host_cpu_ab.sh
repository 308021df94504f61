#!/usr/bin/env bash
# One call on a GPU machine's host: the cpu back end of the working tree against a baseline (the
# same tree with $PATCH reverted), both built cpu-only (Release, no tests, no CLI) in $WORK.
# The int32 min-plus peak on $THREADS threads and on one, then the int32 rounds of random graphs
# (n^2/10 edges, weights 1..1000, bench/random_graph.py) at each n of $SIZES, the two builds
# alternating $ROUNDS times (best of $REPEAT each), with APSP_CPU_PROFILE=1: each run's share of
# thread time in phase-3 tiles, panel tiles, the pivot and waiting is printed beside its rate.
# One thread at n = 1,000 and 2,000 once per build. Rows (date, device, commit, command, n,
# impl, seconds, updates_per_s, pct_peak) to $OUT/cpu_host_ab.csv, the profiles to
# $OUT/cpu_host_ab_profiles.txt, a table last. PYTHON: the interpreter with numpy (python3).
# Without PATCH, BASE_ENV (e.g. APSP_CPU_PREFETCH=0) makes the baseline the same build run with
# those environment settings. PEAK_EACH_ROUND=1 measures the 16-thread peak again before every
# round and takes that round's percentages against it (the shared hosts' peak moves between
# minutes of one call).
#   PATCH=.ab/cpu_kernels.patch THREADS=16 SIZES="1000 2000 4000" ROUNDS=3 scripts/gpu_host_cpu_ab.sh
#   BASE_ENV=APSP_CPU_PREFETCH=0 THREADS=16 scripts/gpu_host_cpu_ab.sh
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/apsp-gpu}
W=${WORK:-/tmp/apsp-cpu-ab}
THREADS=${THREADS:-$(nproc)}
SIZES=${SIZES:-1000 2000 4000}
ROUNDS=${ROUNDS:-3}
REPEAT=${REPEAT:-7}
COMMIT=${APSP_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
mkdir -p "$OUT" "$W"
table="$OUT/cpu_host_ab.txt"
csv="$OUT/cpu_host_ab.csv"
profiles="$OUT/cpu_host_ab_profiles.txt"
: >"$table"
: >"$profiles"
[[ -f $csv ]] || echo "date,device,commit,command,n,impl,seconds,updates_per_s,pct_peak" >"$csv"
say() { echo "$*" | tee -a "$table"; }

build() { # source dir, build dir
  scripts/cpu_bench_build.sh "$1" "$2" cpu_time_solve cpu_minplus_peak
}
PATCH=${PATCH:-}
BASE_ENV=${BASE_ENV:-}
[[ -n $PATCH || -n $BASE_ENV ]] || { say "set PATCH or BASE_ENV"; exit 1; }
build "$PWD" "$W/new" || { say "build failed"; tail -20 "$W/new.build.log"; exit 1; }
if [[ -n $PATCH ]]; then
  rm -rf "$W/base" && mkdir -p "$W/base"
  tar --exclude='./build*' --exclude='./.git' -cf - . | tar -C "$W/base" -xf -
  (cd "$W/base" && patch -s -R -p1 <"$OLDPWD/$PATCH") ||
    { say "PATCH does not revert"; exit 1; }
  build "$W/base" "$W/base-build" || { say "baseline build failed"; tail -20 "$W/base-build.build.log"; exit 1; }
  declare -A bin=([new]="$W/new/bench/cpu" [base]="$W/base-build/bench/cpu")
  base_env=()
else
  declare -A bin=([new]="$W/new/bench/cpu" [base]="$W/new/bench/cpu")
  read -r -a base_env <<<"$BASE_ENV"
fi

cpu=$(lscpu | sed -n 's/^Model name: *//p')
device="$cpu ($THREADS threads)"
peak=$("${bin[new]}/cpu_minplus_peak" 0.5 "$THREADS" | awk '/peak_updates_per_s/ { print $2 }')
peak1=$("${bin[new]}/cpu_minplus_peak" 0.5 1 | awk '/peak_updates_per_s/ { print $2 }')
say "host: $cpu, $(nproc) CPUs; int32 min-plus peak $peak/s on $THREADS threads, $peak1/s on one"

one() { # variant n threads peak round
  local line r share
  local -a env=(APSP_CPU_PROFILE=1)
  [[ $1 == base ]] && env+=("${base_env[@]}")
  line=$(env "${env[@]}" "${bin[$1]}/cpu_time_solve" "$W/g$2.bin" --dtype int32 --threads "$3" \
    --repeat "$REPEAT" 2>"$W/prof.txt")
  r=$(echo "$line" | sed -n 's/.*rounds_seconds=\([0-9.]*\).*/\1/p')
  [[ -z $r ]] && { say "n=$2 $1: FAILED"; return; }
  share=$(grep "share of thread time" "$W/prof.txt" | tail -1 | sed 's/.*time: //')
  { echo "== $1 n=$2 threads=$3 round $5"; tail -$(($3 + 2)) "$W/prof.txt"; } >>"$profiles"
  SHARE=$share python3 -c "import os; n=$2; r=$r; p=$4; print(f'n={n} t=$3 $1 (round $5): {r:.4f} s {n**3/r:.3e}/s {100*n**3/r/p:.1f} % of peak | ' + os.environ['SHARE'])" |
    tee -a "$table"
  python3 -c "n=$2; r=$r; p=$4; print(f'$(date -u +%F),\"$cpu ($3 threads)\",$COMMIT,\"PATCH=$PATCH BASE_ENV=$BASE_ENV THREADS=$THREADS SIZES=\"\"$SIZES\"\" ROUNDS=$ROUNDS REPEAT=$REPEAT scripts/gpu_host_cpu_ab.sh (best of $REPEAT)\",{n},cpu-int32-rounds ($1),{r},{n**3/r:.4e},{100*n**3/r/p:.1f}')" >>"$csv"
}
for n in $SIZES 1000 2000; do
  [[ -f $W/g$n.bin ]] || "${PYTHON:-python3}" bench/random_graph.py "$W/g$n.bin" "$n" 10
done
for round in $(seq "$ROUNDS"); do
  if [[ ${PEAK_EACH_ROUND:-0} == 1 ]]; then
    peak=$("${bin[new]}/cpu_minplus_peak" 0.5 "$THREADS" | awk '/peak_updates_per_s/ { print $2 }')
    say "round $round: int32 min-plus peak $peak/s on $THREADS threads"
  fi
  for n in $SIZES; do
    for v in base new; do
      one "$v" "$n" "$THREADS" "$peak" "$round"
    done
  done
done
for n in 1000 2000; do
  for v in base new; do
    one "$v" "$n" 1 "$peak1" 1
  done
done
echo "================ cpu host A/B ================"
cat "$table"

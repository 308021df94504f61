#!/usr/bin/env bash
# The cpu back end on a GPU machine's host against its thread count: lscpu, the int32 min-plus
# peak on 8 and 16 threads, then the int32 rounds at n = 1000 and 2000 (n^2/10 edges) with 4, 8,
# 12 and 16 threads, best of 7, two rounds alternating. Builds the cpu benchmarks only (no
# CUDA) into build-cpu; needs .deps carried. A summary under $OUT.
#   scripts/gpu_host_threads.sh
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/apsp-gpu}; mkdir -p "$OUT"
ROOT=$PWD
B=build-cpu
cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release -DAPSP_BUILD_PYTHON=OFF -DAPSP_ENABLE_CUDA=OFF -DAPSP_GTEST_SOURCE=$ROOT/.deps/googletest -DCMAKE_PREFIX_PATH=$ROOT/.deps >/dev/null 2>&1
cmake --build $B -j16 --target cpu_minplus_peak cpu_time_solve > $OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
S=$OUT/summary.txt
lscpu | grep -E 'Model name|^CPU\(s\)|Thread|Core|Socket|NUMA node\(s\)|L2|L3' | tee $S
for t in 8 16; do echo "peak threads=$t: $($B/bench/cpu/cpu_minplus_peak 0.5 $t | awk '/peak_updates_per_s/ {print $2}')" | tee -a $S; done
W=/tmp/w; mkdir -p $W
for n in 1000 2000; do
  python3 bench/random_graph.py $W/g$n.bin $n 10
  for round in 1 2; do
    for t in 4 8 12 16; do
      line=$($B/bench/cpu/cpu_time_solve $W/g$n.bin --dtype int32 --threads $t --repeat 7)
      echo "n=$n threads=$t round=$round $(echo "$line" | grep -o 'rounds_seconds=[0-9.]*')" | tee -a $S
    done
  done
done

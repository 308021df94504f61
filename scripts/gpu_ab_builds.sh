#!/usr/bin/env bash
# One call: apsp_bench_cuda built once per variant (each a set of CUDA compile definitions),
# then the kernel rates of the variants alternating ROUNDS times, so a kernel change and its
# baseline are measured on the same machine in the same call; NCU=1 adds an Nsight Compute
# profile of NCU_KERNEL's launches (NCU_SKIP, NCU_COUNT) in the first variant.
#   VARIANTS="base: ilp2:-DAPSP_PATHS_SCAN_ILP=2" SIZES=10000,20000 \
#     KMODES=float32_paths_fractional ROUNDS=2 scripts/gpu_ab_builds.sh
set -uo pipefail
cd "$(dirname "$0")/.."
export NCCL_NVLS_ENABLE=0
source scripts/gpu_build.sh
gpu_script_setup summary_ab_builds.txt
# The device tool returns at most 8 files from $OUT: the logs go to $LOGS, packed at the end.
LOGS=$(mktemp -d)
pack() {
  awk 'FNR > 1 || NR == 1' "$LOGS"/ab_*.csv >"$OUT/ab_rows.csv" 2>/dev/null
  tar -C "$LOGS" -czf "$OUT/logs.tgz" --exclude='*.ncu-rep' . 2>/dev/null
}
trap pack EXIT
VARIANTS=${VARIANTS:-base:}
names=()
for v in $VARIANTS; do
  name=${v%%:*}
  defs=${v#*:}
  names+=("$name")
  t0=$(date +%s)
  cmake -S . -B "build-ab-$name" -G Ninja -DCMAKE_BUILD_TYPE=Release -DAPSP_BUILD_PYTHON=OFF \
    -DCMAKE_CUDA_ARCHITECTURES=90a-real -DAPSP_GTEST_SOURCE="$PWD/.deps/googletest" \
    -DCMAKE_PREFIX_PATH="$PWD/.deps" "-DCMAKE_CUDA_FLAGS=${defs//,/ }" \
    >"$LOGS/configure_$name.log" 2>&1 &&
    cmake --build "build-ab-$name" -j"$(nproc)" --target apsp_bench_cuda >"$LOGS/build_$name.log" 2>&1 ||
    { grep -m3 -A8 error "$LOGS/build_$name.log"; exit 1; }
  note "build $name (${defs:-no definitions}): $(($(date +%s) - t0)) s"
done
SIZES=${SIZES:-10000,20000}
KMODES=${KMODES:-float32_paths_fractional}
for round in $(seq "${ROUNDS:-2}"); do
  for name in "${names[@]}"; do
    cmd="apsp_bench_cuda --peak --sizes $SIZES --modes $KMODES (build $name of: $VARIANTS; round $round)"
    timeout 200 "build-ab-$name/bench/cuda/apsp_bench_cuda" --peak --sizes "$SIZES" \
      --modes "$KMODES" --csv "$LOGS/ab_${name}_$round.csv" --commit "$APSP_COMMIT+$name" \
      --command "$cmd" >"$LOGS/ab_${name}_$round.log" 2>&1
    note "$name round $round:"
    grep -E "kernels|peak" "$LOGS/ab_${name}_$round.log" | tee -a "$summary"
  done
done
if [[ ${NCU:-0} == 1 ]]; then
  name=${names[0]}
  for skip in ${NCU_SKIP:-40}; do
    rep="$LOGS/ncu_${name}_$skip"
    timeout 240 ncu --clock-control none --kernel-name "regex:${NCU_KERNEL:-min_plus_paths}" \
      --launch-skip "$skip" --launch-count "${NCU_COUNT:-2}" \
      --section SpeedOfLight --section Occupancy --section WarpStateStats \
      --section SchedulerStats --section InstructionStats --section SourceCounters \
      -o "$rep" "build-ab-$name/bench/cuda/apsp_bench_cuda" --sizes "${NCU_SIZE:-10000}" \
      --modes "${KMODES%%,*}" >"$LOGS/ncu_run_$skip.log" 2>&1
    note "ncu (launches $skip + ${NCU_COUNT:-2}) rc=$?"
    ncu -i "$rep.ncu-rep" --page details >"$rep.details.txt" 2>&1
    ncu -i "$rep.ncu-rep" --page raw --csv >"$rep.raw.csv" 2>&1
    ncu -i "$rep.ncu-rep" --page source --print-source sass --csv >"$rep.sass.csv" 2>&1 ||
      note "no source page"
    grep -E "Duration|Grid Size|Warp Cycles Per Issued|Achieved Occupancy|Executed Ipc A|Issue Slots Busy" \
      "$rep.details.txt" | tee -a "$summary"
  done
fi
echo "================ summary ================"
cat "$summary"

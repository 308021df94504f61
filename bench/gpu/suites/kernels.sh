# Kernel rates: apsp_bench_cuda (the min-plus peak, the cuda back end's rounds per dtype and n,
# the baselines), each run's own CSV imported into the common schema.

# bench_cuda SUITE LABEL TIMEOUT ARGS...: one apsp_bench_cuda run, its rows imported.
bench_cuda() {
  bench_program apsp_bench_cuda "peak|kernels|baseline|naive|blocked|solve n|n=" "$@"
}

suite kernels suite_kernels "apsp_bench_cuda" \
  "apsp_bench_cuda --peak --sizes KERNEL_SIZES (10000,20000,40000) --modes KERNEL_MODES (int32,int32_paths,float32,packed16) --solve, baselines --naive 10000 --blocked32 10000,20000 (BASELINES=0: none) (was gpu_check.sh bench, gpu_ab.sh)"
suite_kernels() {
  local args=(--peak --sizes "${KERNEL_SIZES:-10000,20000,40000}"
              --modes "${KERNEL_MODES:-int32,int32_paths,float32,packed16}")
  [[ ${SOLVE:-1} == 1 ]] && args+=(--solve)
  [[ ${BASELINES:-1} == 1 ]] && args+=(--naive 10000 --blocked32 10000,20000)
  bench_cuda kernels rates "${KERNEL_TIMEOUT:-400}" "${args[@]}"
}

suite packed suite_packed "apsp_bench_cuda" \
  "packed 16-bit kernel rates, apsp_bench_cuda --peak --sizes 10000,20000,40000 --modes packed16 (was gpu_final.sh bench)"
suite_packed() {
  bench_cuda packed packed16 120 --peak --sizes "${PACKED_SIZES:-10000,20000,40000}" --modes packed16
}

suite paths suite_paths "apsp_bench_cuda apsp_bench_blocked" \
  "path kernels: APSP_CUDA_TAGGED_PATHS=PATHS_TAGGED (1) apsp_bench_cuda --sizes PATHS_SIZES (40000) --modes PATHS_MODES (int32_paths); PATHS_OOC=N:CAP,... adds apsp_bench_blocked --paths --ooc (was gpu_paths.sh bench)"
suite_paths() {
  local g
  for g in ${PATHS_TAGGED:-1}; do
    AB_ENV_SHOWN="${AB_ENV_SHOWN:+$AB_ENV_SHOWN }APSP_CUDA_TAGGED_PATHS=$g" APSP_CUDA_TAGGED_PATHS=$g \
      bench_cuda paths "tagged$g" 200 --sizes "${PATHS_SIZES:-40000}" --modes "${PATHS_MODES:-int32_paths}"
    if [[ -n ${PATHS_OOC:-} ]]; then
      AB_ENV_SHOWN="${AB_ENV_SHOWN:+$AB_ENV_SHOWN }APSP_CUDA_TAGGED_PATHS=$g" APSP_CUDA_TAGGED_PATHS=$g \
        bench_blocked paths "ooc_tagged$g" 300 --paths --ooc "$PATHS_OOC"
    fi
  done
}

suite ncu suite_ncu "apsp_bench_cuda" \
  "Nsight Compute profile of NCU_KERNEL (min_plus_paths) launches NCU_SKIP (40) + NCU_COUNT (2) of apsp_bench_cuda --sizes NCU_SIZE (10000) --modes KERNEL_MODES' first (was gpu_ab_builds.sh NCU=1)"
suite_ncu() {
  local skip rep mode=${KERNEL_MODES:-float32_paths_fractional}
  mode=${mode%%,*}
  for skip in ${NCU_SKIP:-40}; do
    rep="$WORK/ncu_${VARIANT_TAG:-}$skip"
    timeout 240 ncu --clock-control none --kernel-name "regex:${NCU_KERNEL:-min_plus_paths}" \
      --launch-skip "$skip" --launch-count "${NCU_COUNT:-2}" \
      --section SpeedOfLight --section Occupancy --section WarpStateStats \
      --section SchedulerStats --section InstructionStats --section SourceCounters \
      -o "$rep" "$BUILD/bench/cuda/apsp_bench_cuda" --sizes "${NCU_SIZE:-10000}" \
      --modes "$mode" >"$rep.run.log" 2>&1
    note "ncu (launches $skip + ${NCU_COUNT:-2}) rc=$?"
    ncu -i "$rep.ncu-rep" --page details >"$rep.details.txt" 2>&1
    ncu -i "$rep.ncu-rep" --page raw --csv >"$rep.raw.csv" 2>&1
    ncu -i "$rep.ncu-rep" --page source --print-source sass --csv >"$rep.sass.csv" 2>&1 ||
      note "no source page"
    grep -E "Duration|Grid Size|Warp Cycles Per Issued|Achieved Occupancy|Executed Ipc A|Issue Slots Busy" \
      "$rep.details.txt" | tee -a "$SUMMARY"
  done
}

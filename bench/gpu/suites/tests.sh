# Correctness on the GPU machine: the gpu-labelled CTests, the SASS and compute-sanitizer checks,
# every cuda driver against the cpu back end.

suite tests suite_tests "all" \
  "build everything, ctest -L gpu, memcheck on the out-of-core n=300 case (was gpu_final.sh tests)"
suite_tests() {
  local log="$WORK/ctest_gpu.log" t0=$EPOCHREALTIME
  (cd "$BUILD" && timeout "${CTEST_TIMEOUT:-400}" ctest -L gpu --output-on-failure \
    -j"${CTEST_JOBS:-3}" >"$log" 2>&1)
  note "ctest -L gpu: rc=$? in $(since "$t0") s"
  ctest_counts tests "ctest -L gpu" "$log" "ctest -L gpu -j${CTEST_JOBS:-3}"
  local ooc
  ooc=$(program cuda_out_of_core_test)
  [[ -n $ooc ]] && sanitizer tests memcheck "$ooc" \
    'OuterBlocks/CudaOutOfCoreSizes.Int32BitIdenticalToInCoreAndReference/n300_bo128_negative'
  return 0
}

suite checks suite_checks "cuda_backend_test packed16_test cuda_out_of_core_test cuda_multi_gpu_test" \
  "SASS (VIADDMNMX in fw_int32 and fw_packed16, local memory) and compute-sanitizer on small cases (was gpu_check.sh check, gpu_paths.sh, gpu_blocked.sh, gpu_multi.sh, gpu_two_gpu_targets.sh)"
suite_checks() {
  local obj obj16 t
  obj=$(find "$BUILD" -name 'fw_int32.cu.o' | head -1)
  obj16=$(find "$BUILD" -name 'fw_packed16.cu.o' | head -1)
  if [[ -n $obj ]]; then
    cuobjdump -sass -arch sm_90a "$obj" >"$WORK/fw_int32.sass" 2>&1
    awk '/Function :/{f=$3} /VIADDMNMX/{c[f]++} END{for (k in c) printf "  %6d VIADDMNMX  %s\n", c[k], k}' \
      "$WORK/fw_int32.sass" | c++filt | tee -a "$SUMMARY"
    row checks "SASS fw_int32" "" viaddmnmx "$(grep -c VIADDMNMX "$WORK/fw_int32.sass")" count \
      "cuobjdump -sass -arch sm_90a fw_int32.cu.o"
    row checks "SASS fw_int32" "" local_memory_instructions "$(grep -c "LDL\|STL" "$WORK/fw_int32.sass")" \
      count "cuobjdump -sass -arch sm_90a fw_int32.cu.o"
    cuobjdump -res-usage "$obj" 2>&1 | c++filt | grep -A1 "min_plus\|pivot" >"$WORK/res_usage.txt"
  fi
  if [[ -n $obj16 ]]; then
    cuobjdump -sass -arch sm_90a "$obj16" >"$WORK/fw_packed16.sass" 2>&1
    row checks "SASS fw_packed16" "" viaddmnmx "$(grep -c VIADDMNMX "$WORK/fw_packed16.sass")" count \
      "cuobjdump -sass -arch sm_90a fw_packed16.cu.o"
    note "packed SASS: $(grep -c VIADDMNMX "$WORK/fw_packed16.sass") VIADDMNMX in fw_packed16"
  fi
  t=$(program cuda_backend_test)
  if [[ -n $t ]]; then
    local small='TileEdges/CudaSizes.Int32MatchesReferenceExactly/5:TileEdges/CudaSizes.Float32MatchesReferenceWithinRounding/5:Cuda.NegativeWeightsWithoutCyclesMatchReference'
    sanitizer checks memcheck "$t" "$small"
    sanitizer checks racecheck "$t" "$small"
    sanitizer checks racecheck "$t" 'TileEdges/CudaSizes.Int32MatchesReferenceExactly/8'
    sanitizer checks memcheck "$t" 'Cuda.TaggedPaths*'
    sanitizer checks memcheck "$t" 'Cuda.DeferredPivots*'
  fi
  t=$(program packed16_test)
  if [[ -n $t ]]; then
    sanitizer checks memcheck "$t" 'TileEdges/PackedSizes.*/7:Packed16.DisconnectedGraphKeepsInfinity'
    sanitizer checks racecheck "$t" 'TileEdges/PackedSizes.*/7:Packed16.DisconnectedGraphKeepsInfinity'
  fi
  t=$(program cuda_out_of_core_test)
  [[ -n $t ]] && sanitizer checks memcheck "$t" \
    'OuterBlocks/CudaOutOfCoreSizes.Int32BitIdenticalToInCoreAndReference/n300_bo128_negative:OuterBlocks/CudaOutOfCoreSizes.Int32BitIdenticalToInCoreAndReference/n129_bo128'
  t=$(program cuda_multi_gpu_test)
  [[ -n $t ]] && sanitizer checks memcheck "$t" \
    'CudaMultiGpuOnOneDevice.CheckpointCancelThenResumeIsByteIdentical:DeviceGroup.*' \
    APSP_CUDA_FORCE_MULTI_GPU=1
  return 0
}

suite plan-check suite_plan_check "apsp_cli" \
  "every cuda driver from the CLI byte for byte against the cpu back end on rome99: in core, split, out of core (was gpu_plan_check.sh)"
suite_plan_check() {
  local A g=data/rome99.gr w="$WORK/plan_check"
  A=$(program apsp)
  mkdir -p "$w"
  note "cuda_outputs.sh: $(bash tests/cli/cuda_outputs.sh "$A" "$g" "$w/outputs" 2>&1 | tail -1)"
  "$A" solve "$g" -o "$w/cpu.npy" --backend cpu --quiet
  check() { # label, solve arguments...
    local label=$1 same
    shift
    "$A" solve "$g" -o "$w/x.npy" --no-map-output --json "$@" >"$w/x.json" 2>"$w/x.err"
    cmp -s "$w/cpu.npy" "$w/x.npy" && same=1 || same=0
    note "$label ($(grep -o '"driver": "[^"]*' "$w/x.json" | cut -c12-)): $( ((same)) && echo IDENTICAL to cpu || echo "DIFFER ($(tail -1 "$w/x.err"))")"
    row plan-check "$label" 3353 identical_to_cpu "$same" bool "apsp solve rome99.gr -o x.npy --no-map-output --json $*"
  }
  check "in core" --backend cuda
  ((GPUS >= 2)) && check "split" --backend cuda --devices 0,1
  APSP_CUDA_FORCE_OUT_OF_CORE_BYTES=64M check "out of core (APSP_CUDA_FORCE_OUT_OF_CORE_BYTES=64M)" \
    --backend cuda
  rm -rf "$w"/*.npy "$w/outputs"
}

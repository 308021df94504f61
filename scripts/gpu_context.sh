#!/usr/bin/env bash
# A CUDA context's start and end on the lent machine, step by step (bench/cuda/context_probe.py),
# under the driver settings in $SETTINGS, then whole `apsp solve` runs with the same settings
# (scripts/gpu_breakdown.sh, MODES=$SETTINGS). Logs under $OUT; tables last.
#   SETTINGS="CUDA_DEVICE_MAX_CONNECTIONS=1;CUDA_DEVICE_MAX_CONNECTIONS=2" scripts/gpu_context.sh
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu_build.sh
gpu_script_setup context_table.txt
export NCCL_NVLS_ENABLE=0
SETTINGS=${SETTINGS:-CUDA_DEVICE_MAX_CONNECTIONS=1;CUDA_DEVICE_MAX_CONNECTIONS=2}
gpu_build_targets apsp_context_probe apsp_cli apsp_bench_cuda || exit 1
probe=$(find "$BUILD" -name apsp_context_probe -type f | head -1)
python3 bench/cuda/context_probe.py "$probe" --repeat "${REPEAT:-7}" \
  --settings "default;$SETTINGS" --ends "${ENDS:-keep,release,reset,runtime}" --mib "${MIB:-64}" |
  tee "$OUT/context_probe.txt"
[[ ${WHOLE:-1} == 1 ]] && MODES="$SETTINGS" SIZES=${SIZES:-5000 10000} BUILD=$BUILD \
  scripts/gpu_breakdown.sh >"$OUT/breakdown.log" 2>&1
echo "================ context probe ($APSP_COMMIT) ================"
cat "$OUT/context_probe.txt"
[[ -f $OUT/breakdown_table.txt ]] && grep -E "median|exit:|process start|cudaFree" "$OUT/breakdown_table.txt"

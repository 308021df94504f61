#!/usr/bin/env bash
# One short GPU call after a change to how plans reach the back ends: builds the CLI (sm_90a),
# then every cuda driver from the command line against the cpu back end on rome99, byte for
# byte: in core (in place and in RAM, with paths: tests/cli/cuda_outputs.sh), split over two
# devices (when there are two) and out of core (forced by the tuning knob).
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu_build.sh
gpu_script_setup summary_plan_check.txt
export NCCL_NVLS_ENABLE=0
gpu_build_targets apsp_cli || exit 1
A=$(find "$BUILD" -name apsp -type f -perm -u+x | head -1)
g=data/rome99.gr
note "cuda_outputs.sh: $(bash tests/cli/cuda_outputs.sh "$A" "$g" "$OUT/w" 2>&1 | tail -1)"
"$A" solve "$g" -o "$OUT/cpu.npy" --backend cpu --quiet
check() { # label, solve arguments...
  local label=$1
  shift
  "$A" solve "$g" -o "$OUT/x.npy" --no-map-output --json "$@" >"$OUT/x.json" 2>"$OUT/x.err"
  note "$label ($(grep -o '"driver": "[^"]*' "$OUT/x.json" | cut -c12-)): $(cmp -s "$OUT/cpu.npy" "$OUT/x.npy" && echo IDENTICAL to cpu || echo "DIFFER ($(tail -1 "$OUT/x.err"))")"
}
check "in core" --backend cuda
(($(nvidia-smi -L | wc -l) >= 2)) && check "split" --backend cuda --devices 0,1
APSP_CUDA_FORCE_OUT_OF_CORE_BYTES=64M check "out of core" --backend cuda
rm -rf "$OUT/w" "$OUT"/*.npy
cat "$summary"

#!/usr/bin/env bash
# Out of core on two GPUs against out of core on one (the same per-device cap), 2x H200:
# n = 40000 with 2 GiB and n = 80000 with 8 GiB per device (below the 12.8 GB of rows each
# device would hold in core). Builds the benchmark first when missing.
#   APSP_COMMIT=abc1234 scripts/gpu_multi_ooc.sh
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/apsp-gpu}
BUILD=${BUILD:-build-gpu}
mkdir -p "$OUT"
source scripts/gpu_build.sh
gpu_build_targets apsp_bench_blocked || exit 1
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
"$BUILD/bench/cuda/apsp_bench_blocked" --multi-ooc "${SIZES:-40000:2G,80000:8G}" --devices 0,1 \
  --csv "$OUT/cuda_multi_$(date -u +%Y-%m-%d).csv" --commit "${APSP_COMMIT:-unknown}" \
  --command "scripts/gpu_multi_ooc.sh" 2>&1 | tee "$OUT/bench_multi_ooc.log"

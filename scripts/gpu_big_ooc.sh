#!/usr/bin/env bash
# Out of core with the int32 matrix larger than the GPU's memory: n = 160,000 (102.4 GB in host
# memory) on one 80 GB H100, through apsp_bench_blocked --big-ooc. Builds first if needed.
#   N=160000 BUILD=build-gpu scripts/gpu_big_ooc.sh
set -uo pipefail
cd "$(dirname "$0")/.."
export OUT=${OUT:-/tmp/apsp-gpu}
BUILD=${BUILD:-build-gpu}
N=${N:-160000}
COMMIT=${APSP_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
mkdir -p "$OUT"
source scripts/gpu_build.sh
gpu_build_targets apsp_bench_blocked || exit 1
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
free -g | head -2
APSP_CUDA_VERBOSE=1 "$BUILD/bench/cuda/apsp_bench_blocked" --big-ooc "$N" \
  --csv "$OUT/cuda_blocked_$(date -u +%Y-%m-%d).csv" --commit "$COMMIT" \
  --command "scripts/gpu_big_ooc.sh (N=$N)" 2>&1 | tee "$OUT/big_ooc.log"

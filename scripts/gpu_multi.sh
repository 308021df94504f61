#!/usr/bin/env bash
# One call on the two-GPU machine for the in-process split (multi_gpu.hpp) and GPU ranks: build
# and every gpu-labelled test (scripts/gpu_final.sh tests), compute-sanitizer on the split's
# checkpoint test and the device group, then bench/mpi/gpu_ranks.sh: one GPU, `--devices 0,1`
# and 2 GPU ranks at n = $SIZES (block $BLOCKS), and the split with look-ahead forced each way
# (APSP_CUDA_LOOKAHEAD) at n = $LA_SIZES. Work files under $WORK; only the summaries, the CSV
# and the test log go to $OUT (the device tool returns few files). A table last.
#   SIZES="20000 40000" BLOCKS=256 LA_SIZES=40000 scripts/gpu_multi.sh
set -uo pipefail
cd "$(dirname "$0")/.."
FINAL_OUT=${OUT:-/tmp/apsp-gpu}
export WORK=${WORK:-/tmp/apsp-multi}
export NCCL_NVLS_ENABLE=0
mkdir -p "$FINAL_OUT" "$WORK"
if [[ ${SKIP_TESTS:-0} != 1 ]]; then
  OUT=$WORK scripts/gpu_final.sh tests >"$WORK/tests.out" 2>&1
  t=$(find . -path '*tests/cuda/cuda_multi_gpu_test' -type f | head -1)
  APSP_CUDA_FORCE_MULTI_GPU=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 "$t" \
    --gtest_filter='CudaMultiGpuOnOneDevice.CheckpointCancelThenResumeIsByteIdentical:DeviceGroup.*' \
    >"$WORK/sanitizer_multi.log" 2>&1
  echo "compute-sanitizer memcheck (split checkpoint, device group): rc=$? $(grep -E 'ERROR SUMMARY' "$WORK/sanitizer_multi.log")" \
    >>"$WORK/summary_tests.txt"
  cp "$WORK/summary_tests.txt" "$WORK/ctest_gpu.log" "$FINAL_OUT/" 2>/dev/null
fi
OUT=$WORK ONE_GPU=${ONE_GPU:-1} SIZES=${SIZES:-20000 40000} BLOCKS=${BLOCKS:-256} VARIANTS=auto \
  bench/mpi/gpu_ranks.sh >"$WORK/ranks.out" 2>&1
A=$(find build-gpu -name apsp -type f -perm -u+x | head -1)
for n in ${LA_SIZES:-}; do
  python3 - "$WORK/g$n.bin" "$n" <<'PY'
import sys
import numpy as np
path, n, per = sys.argv[1], int(sys.argv[2]), 20
rng = np.random.default_rng(n)
src = np.repeat(np.arange(n, dtype=np.int32), per)
dst = rng.integers(0, n, size=src.size, dtype=np.int32)
w = rng.integers(1, 101, size=src.size, dtype=np.int32)
with open(path, "wb") as f:
    np.array([n, src.size], dtype=np.int32).tofile(f)
    np.stack([src, dst, w], axis=1).astype(np.int32).tofile(f)
PY
  for la in 0 1; do
    APSP_CUDA_LOOKAHEAD=$la $A solve "$WORK/g$n.bin" --devices 0,1 --algorithm fw --json \
      >"$WORK/la_${n}_$la.json" 2>"$WORK/la_${n}_$la.err"
    s=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['seconds']['solve'])" \
      "$WORK/la_${n}_$la.json" 2>/dev/null)
    echo "n=$n --devices 0,1 APSP_CUDA_LOOKAHEAD=$la: solve ${s:-FAILED $(tail -1 "$WORK/la_${n}_$la.err")} s" \
      | tee -a "$WORK/summary_gpu_ranks.txt"
    [[ -n $s ]] && echo "$(date -u +%Y-%m-%d),\"$(nvidia-smi -L | wc -l)x $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)\",$APSP_COMMIT,\"APSP_CUDA_LOOKAHEAD=$la apsp solve g$n.bin --devices 0,1 --algorithm fw --json\",$n,\"in-process --devices 0,1, look-ahead $([[ $la == 1 ]] && echo on || echo off)\",$s,$(python3 -c "print(f'{$n**3/$s:.4e}')"),," \
      >>"$WORK/mpi_gpu_ranks.csv"
  done
  rm -f "$WORK/g$n.bin"
done
cp "$WORK/summary_gpu_ranks.txt" "$WORK/mpi_gpu_ranks.csv" "$FINAL_OUT/" 2>/dev/null
echo "================ tests ================"
cat "$WORK/summary_tests.txt" 2>/dev/null
echo "================ timings ================"
cat "$WORK/summary_gpu_ranks.txt"

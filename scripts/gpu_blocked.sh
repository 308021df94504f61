#!/usr/bin/env bash
# The cuda back end's out-of-core and multi-GPU modes on a GPU machine: build, GPU tests,
# compute-sanitizer on small cases, benchmarks; a short table is printed last. Called as
#   scripts/gpu_check.sh ooc     (one GPU, e.g. an H100; about 4-6 minutes)
#   scripts/gpu_check.sh multi   (two GPUs, e.g. 2x H200; about 5-7 minutes)
# Env: OUT (logs, default /tmp/apsp-gpu), BUILD (default build-gpu), APSP_COMMIT,
#      OOC_BENCH (default 40000:2G), BIG_OOC (n of an optional run whose matrix exceeds the
#      GPU; needs > 1.25x GPU memory of host RAM, off by default), MULTI_SIZES (40000,80000).
set -uo pipefail
cd "$(dirname "$0")/.."
MODE=${1:?usage: gpu_blocked.sh ooc|multi}
OUT=${OUT:-/tmp/apsp-gpu}
BUILD=${BUILD:-build-gpu}
COMMIT=${APSP_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
DATE=$(date -u +%Y-%m-%d)
mkdir -p "$OUT"
summary="$OUT/summary_$MODE.txt"
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }
gtest_line() { grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$1" | tr '\n' ' '; }

nvidia-smi --query-gpu=index,name,memory.total,clocks.sm --format=csv | tee "$OUT/gpu_$MODE.txt"
nvidia-smi topo -m >>"$OUT/gpu_$MODE.txt" 2>&1

t0=$(date +%s)
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DAPSP_BUILD_PYTHON=OFF \
  -DAPSP_BUILD_CLI=OFF -DAPSP_GTEST_SOURCE="$PWD/.deps/googletest" \
  -DCMAKE_PREFIX_PATH="$PWD/.deps" >"$OUT/configure_$MODE.log" 2>&1 ||
  { tail -40 "$OUT/configure_$MODE.log"; exit 1; }
targets="apsp_bench_blocked cuda_multi_gpu_test"
[[ $MODE == ooc ]] && targets="$targets cuda_out_of_core_test conformance_cuda_ooc"
cmake --build "$BUILD" -j"$(nproc)" --target $targets >"$OUT/build_$MODE.log" 2>&1 ||
  { grep -B3 -A12 -m5 "error" "$OUT/build_$MODE.log"; exit 1; }
note "build: $(( $(date +%s) - t0 )) s"

run_test() { # name, binary, [gtest args...]
  local name=$1 bin=$2
  shift 2
  local t=$(date +%s)
  timeout 300 "$bin" "$@" >"$OUT/$name.log" 2>&1
  note "$name: rc=$? $(( $(date +%s) - t )) s $(gtest_line "$OUT/$name.log")"
  grep -E "Failure|FAILED|error" "$OUT/$name.log" | head -20
}

if [[ $MODE == ooc ]]; then
  run_test cuda_out_of_core_test "$BUILD/tests/cuda/cuda_out_of_core_test"
  run_test conformance_cuda_ooc "$BUILD/tests/cuda/conformance_cuda_ooc"
  # The multi-GPU driver on one GPU (device 0 listed twice); the two-device tests skip.
  run_test cuda_multi_gpu_test_one_gpu "$BUILD/tests/cuda/cuda_multi_gpu_test"
  small='OuterBlocks/CudaOutOfCoreSizes.Int32BitIdenticalToInCoreAndReference/n300_bo128_negative:OuterBlocks/CudaOutOfCoreSizes.Int32BitIdenticalToInCoreAndReference/n129_bo128'
  compute-sanitizer --tool memcheck --error-exitcode 9 "$BUILD/tests/cuda/cuda_out_of_core_test" \
    --gtest_filter="$small" >"$OUT/sanitizer_ooc_memcheck.log" 2>&1
  note "compute-sanitizer memcheck (out-of-core n=129,300): rc=$? $(grep -E 'ERROR SUMMARY' "$OUT/sanitizer_ooc_memcheck.log" | tr '\n' ' ')"
  args=(--ooc "${OOC_BENCH:-40000:2G}")
  [[ -n ${BIG_OOC:-} ]] && args+=(--big-ooc "$BIG_OOC")
else
  run_test cuda_multi_gpu_test "$BUILD/tests/cuda/cuda_multi_gpu_test"
  args=(--multi "${MULTI_SIZES:-40000,80000}" --devices 0,1)
fi

csv="$OUT/cuda_blocked_$DATE.csv"
APSP_CUDA_VERBOSE=1 timeout 420 "$BUILD/bench/cuda/apsp_bench_blocked" "${args[@]}" --csv "$csv" \
  --commit "$COMMIT" --command "scripts/gpu_check.sh $MODE" 2>&1 | tee "$OUT/bench_$MODE.log"
note "bench rc=${PIPESTATUS[0]} (csv: $csv)"
echo "================ summary ($MODE) ================"
cat "$summary"
grep -E "^  (n=|ooc|multi)|out-of-core:" "$OUT/bench_$MODE.log"

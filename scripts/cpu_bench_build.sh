#!/usr/bin/env bash
# Builds cpu benchmark programs only (Release; no CUDA, tests, CLI or Python) for the host
# scripts (gpu_host_cpu_ab.sh, gpu_host_tile_rate.sh), with the dependencies in the checkout's
# .deps. Logs to BUILD_DIR.configure.log and BUILD_DIR.build.log.
#   scripts/cpu_bench_build.sh SOURCE_DIR BUILD_DIR TARGET...
set -uo pipefail
src=$1
build=$2
shift 2
deps="$(cd "$(dirname "$0")/.." && pwd)/.deps"
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DAPSP_BUILD_PYTHON=OFF \
  -DAPSP_ENABLE_CUDA=OFF -DAPSP_BUILD_TESTS=OFF -DAPSP_BUILD_CLI=OFF \
  -DCMAKE_PREFIX_PATH="$deps" >"$build.configure.log" 2>&1 &&
  cmake --build "$build" -j"$(nproc)" --target "$@" >"$build.build.log" 2>&1

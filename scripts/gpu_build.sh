# Sourced by the GPU scripts: configure (Release, sm_90a only, the carried .deps) and build the
# given targets into $BUILD unless the first one already exists; logs under $OUT.
#   source scripts/gpu_build.sh; gpu_build_targets apsp_bench_blocked
gpu_build_targets() {
  local first=$1
  [[ -n $(find "$BUILD" -name "$first" -type f -perm -u+x 2>/dev/null | head -1) ]] && return 0
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DAPSP_BUILD_PYTHON=OFF \
    -DCMAKE_CUDA_ARCHITECTURES=90a-real \
    -DAPSP_GTEST_SOURCE="$PWD/.deps/googletest" -DCMAKE_PREFIX_PATH="$PWD/.deps" \
    >"$OUT/configure.log" 2>&1 &&
    cmake --build "$BUILD" -j"$(nproc)" --target "$@" >"$OUT/build.log" 2>&1 ||
    { tail -20 "$OUT/build.log"; return 1; }
}

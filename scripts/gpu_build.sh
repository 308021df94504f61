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

# The common start of a GPU script (run from the repository root): OUT, BUILD, APSP_COMMIT,
# APSP_DATA_DIR (the carried .gpu_data, also copied to ../shared/data), DATE, a summary file
# with a note() helper, and the GPU's name and clocks as its first line.
#   source scripts/gpu_build.sh; gpu_script_setup summary_paths.txt
gpu_script_setup() {
  export OUT=${OUT:-/tmp/apsp-gpu}
  BUILD=${BUILD:-build-gpu}
  export APSP_COMMIT=${APSP_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
  export APSP_DATA_DIR=$PWD/.gpu_data
  DATE=$(date -u +%Y-%m-%d)
  mkdir -p "$OUT" ../shared/data
  cp -n .gpu_data/* ../shared/data/ 2>/dev/null
  summary="$OUT/$1"
  : >"$summary"
  note() { echo "$*" | tee -a "$summary"; }
  nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.max.sm --format=csv,noheader |
    tee -a "$summary"
}

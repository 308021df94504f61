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

# One `apsp solve IN -o OUT --json` from a fresh OUT with APSP_CUDA_RANK_TIMES=1, timed by the
# wall clock: sets SOLVE_S (the --json solve stage), WHOLE_S and RANK_TIMES (each GPU rank's
# set-up and download, ';'-separated); returns 1, printing the error's last line, on failure.
#   timed_solve APSP IN OUT [more solve arguments...]
timed_solve() {
  local apsp=$1 in=$2 out=$3
  shift 3
  rm -f "$out"
  sync
  local start=$EPOCHREALTIME
  APSP_CUDA_RANK_TIMES=1 "$apsp" solve "$in" -o "$out" --json "$@" >"$out.json" 2>"$out.err" ||
    { echo "FAILED: $(tail -1 "$out.err")"; return 1; }
  local end=$EPOCHREALTIME
  SOLVE_S=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['seconds']['solve'])" "$out.json")
  WHOLE_S=$(python3 -c "print(f'{$end - $start:.3f}')")
  RANK_TIMES=$(grep -o "set-up ([^)]*) [0-9.]* s, download [0-9.]* s" "$out.err" |
    sed 's/(tiles from the [a-z ]*) //' | tr '\n' ';')
}

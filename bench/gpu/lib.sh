# Shared functions of the benchmark driver (bench/gpu/run.sh); sourced, not run.
# Conventions for the suites in bench/gpu/suites/*.sh:
#   $BUILD     the build directory whose programs a suite runs ($BUILD/cli/apsp, ...)
#   $WORK      scratch space (graphs, program logs, native CSVs); packed into $OUT/logs.tgz
#   $VARIANT   empty, or the A/B variant being measured (the `ab` suite sets it)
#   row ...    appends one row of the common schema to $CSV (bench/gpu/README.md)
#   note ...   one line to the summary (printed at the end, kept in $OUT/summary.txt)

BUILD_EXTRA=() # extra cmake arguments of the next build (ab sets them)
CSV_HEADER="date,device,commit,suite,variant,case,n,metric,value,unit,command"

# One CSV field: quoted when it holds a comma, quote or space.
csv_field() {
  local s=$1
  if [[ $s == *[,\"\ ]* ]]; then
    s=${s//\"/\"\"}
    printf '"%s"' "$s"
  else
    printf '%s' "$s"
  fi
}

# row SUITE CASE N METRIC VALUE UNIT COMMAND: one measurement of the current variant.
row() {
  local f out=""
  for f in "$DATE" "$DEVICE" "${VARIANT_COMMIT:-$APSP_COMMIT}" "$1" "${VARIANT:-}" "$2" "$3" \
    "$4" "$5" "$6" "$7${AB_ROUND:+ (round $AB_ROUND)}"; do
    out+="$(csv_field "$f"),"
  done
  echo "${out%,}" >>"$CSV"
}

note() { echo "$*" | tee -a "$SUMMARY"; }

# import_csv SUITE FILE [CASE_COLUMN]: the rows a measurement program wrote in its own CSV
# (apsp_bench_cuda, apsp_bench_blocked, wholerun.py, rank_row.py ...) in the common schema.
import_csv() {
  [[ -f $2 ]] || { note "$1: no rows ($2 missing)"; return 1; }
  python3 "$DRIVER_DIR/rows.py" convert "$2" --suite "$1" --case-column "${3:-}" \
    --variant "${VARIANT:-}" --commit "${VARIANT_COMMIT:-$APSP_COMMIT}" --device "$DEVICE" \
    --date "$DATE" --command-suffix "${AB_ROUND:+ (round $AB_ROUND)}" >>"$CSV"
}

# bench_program PROGRAM GREP SUITE LABEL TIMEOUT ARGS...: one run of a benchmark program of
# bench/cuda that takes --csv, --commit and --command; the log lines matching GREP go to the
# summary and its rows into the common schema.
bench_program() {
  local prog=$1 pattern=$2 suite=$3 label=$4 limit=$5
  shift 5
  local f="$WORK/${suite}_${label}_${VARIANT_TAG:-}$RANDOM"
  local shown="${AB_ENV_SHOWN:+$AB_ENV_SHOWN }$prog $*"
  timeout "$limit" "$BUILD/bench/cuda/$prog" "$@" --csv "$f.csv" \
    --commit "${VARIANT_COMMIT:-$APSP_COMMIT}" --command "bench/gpu/run.sh $suite: $shown" \
    >"$f.log" 2>&1
  note "$suite $label${VARIANT:+ [$VARIANT]}: rc=$?"
  grep -E "$pattern" "$f.log" | tee -a "$SUMMARY"
  import_csv "$suite" "$f.csv"
}

# The first setting-up of a call: OUT, WORK, BUILD, APSP_COMMIT, DATE, DEVICE, the CSV and
# the summary, the data directory, and the environment every GPU run needs.
driver_setup() {
  export OUT=${OUT:-/tmp/apsp-gpu}
  export WORK=${WORK:-/tmp/apsp-bench}
  export BUILD=${BUILD:-build-gpu}
  export APSP_COMMIT=${APSP_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
  export APSP_DATA_DIR=${APSP_DATA_DIR:-$PWD/.gpu_data}
  export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  DATE=$(date -u +%Y-%m-%d)
  # A warm machine keeps WORK between calls: start empty, so that logs.tgz is this call's.
  [[ -f $WORK/.apsp-bench-work ]] && find "$WORK" -mindepth 1 -delete
  mkdir -p "$OUT" "$WORK"
  : >"$WORK/.apsp-bench-work"
  [[ -d .gpu_data ]] && mkdir -p ../shared/data 2>/dev/null &&
    cp -n .gpu_data/* ../shared/data/ 2>/dev/null
  CSV=$OUT/results.csv
  [[ -f $CSV ]] || echo "$CSV_HEADER" >"$CSV"
  SUMMARY=$OUT/summary.txt
  : >"$SUMMARY"
  GPUS=$(nvidia-smi -L 2>/dev/null | wc -l)
  GPU_NAME=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
  CPU_NAME=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
  DEVICE="${GPUS}x ${GPU_NAME:-no GPU}; $(nproc) CPUs ${CPU_NAME:-unknown}"
  export DATE CSV SUMMARY GPUS GPU_NAME CPU_NAME DEVICE
  note "device: $DEVICE; commit $APSP_COMMIT"
  nvidia-smi --query-gpu=index,name,memory.total,clocks.sm,clocks.max.sm,driver_version \
    --format=csv >"$WORK/gpu.txt" 2>&1
  nvidia-smi topo -m >>"$WORK/gpu.txt" 2>&1
}

# build SOURCE_DIR BUILD_DIR TARGET...: Release, sm_90a only, Ninja, every core, the .deps of
# the tree the driver runs from (an older BASE_SRC need not carry its own); logs in $WORK.
# "all" builds everything. Extra cmake arguments in BUILD_EXTRA (an array, may be unset).
build() {
  local src=$1 dir=$2 name
  shift 2
  name=$(basename "$dir")
  local t0=$EPOCHREALTIME
  cmake -S "$src" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DAPSP_BUILD_PYTHON=OFF \
    -DCMAKE_CUDA_ARCHITECTURES=90a-real -DAPSP_GTEST_SOURCE="$ROOT/.deps/googletest" \
    -DCMAKE_PREFIX_PATH="$ROOT/.deps" "${BUILD_EXTRA[@]}" >"$WORK/configure_$name.log" 2>&1 ||
    { note "configure $dir failed"; tail -30 "$WORK/configure_$name.log"; return 1; }
  local targets=() t
  [[ " $* " == *" all "* ]] || for t in "$@"; do targets+=(--target "$t"); done
  cmake --build "$dir" -j"$(nproc)" "${targets[@]}" >"$WORK/build_$name.log" 2>&1 ||
    { note "build $dir failed"; grep -B3 -A12 -m5 "error" "$WORK/build_$name.log"; return 1; }
  note "build $dir ($*): $(python3 -c "print(f'{$EPOCHREALTIME - $t0:.0f}')") s"
}

# Seconds since START (an $EPOCHREALTIME), 3 decimals.
since() { python3 -c "print(f'{$EPOCHREALTIME - $1:.3f}')"; }

# A stage of an `apsp solve --json` output: json_stage FILE solve
json_stage() {
  python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['seconds'][sys.argv[2]])" \
    "$1" "$2" 2>/dev/null
}

# rate N SECONDS: n^3 / seconds.
rate() { python3 -c "print(f'{$1**3/$2:.4e}')"; }

# The first executable named NAME under $BUILD.
program() { find "$BUILD" -name "$1" -type f -perm -u+x 2>/dev/null | head -1; }

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
  WHOLE_S=$(since "$start")
  SOLVE_S=$(json_stage "$out.json" solve)
  RANK_TIMES=$(grep -o "set-up ([^)]*) [0-9.]* s, download [0-9.]* s" "$out.err" |
    sed 's/(tiles from the [a-z ]*) //' | tr '\n' ';')
  return 0 # no rank-times line is no failure
}

# sparse_graph PATH N: 20 out-edges per vertex, weights 1..100, seed n (the generator of the
# two-GPU headline, of the rank benchmarks and of the split A/B's "sparse" graph).
sparse_graph() { [[ -f $1 ]] || python3 bench/random_graph.py "$1" "$2" --per-vertex 20; }

# gtest_line LOG: the PASSED / FAILED / SKIPPED lines of a googletest log on one line.
gtest_line() { grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$1" | tr '\n' ' '; }

# ctest_counts SUITE CASE LOG COMMAND: rows tests_passed and tests_total from a ctest log.
ctest_counts() {
  local line pct passed total
  line=$(grep -E 'tests passed' "$3" | tail -1)
  note "$2: ${line:-no ctest summary (see $3)}"
  grep -E "\*\*\*Failed|\*\*\*Timeout|Failure$" "$3" | head -20 | tee -a "$SUMMARY"
  grep -E "^\s*[0-9]+ - .*\((Skipped|Failed|Timeout)\)" "$3" | head -30 | tee -a "$SUMMARY"
  [[ $line =~ ([0-9]+)%\ tests\ passed,\ ([0-9]+)\ tests\ failed\ out\ of\ ([0-9]+) ]] || return
  pct=${BASH_REMATCH[1]}
  total=${BASH_REMATCH[3]}
  passed=$((total - BASH_REMATCH[2]))
  row "$1" "$2" "" tests_passed "$passed" count "$4"
  row "$1" "$2" "" tests_total "$total" count "$4"
  : "$pct"
}

# sanitizer SUITE TOOL BINARY FILTER [ENV...]: compute-sanitizer on a few googletest cases; a row
# with its error count (0 is clean), rc in the summary.
sanitizer() {
  local suite=$1 tool=$2 bin=$3 filter=$4
  shift 4
  local log
  log="$WORK/sanitizer_${tool}_$(basename "$bin")_$RANDOM.log"
  env "$@" timeout 200 compute-sanitizer --tool "$tool" --error-exitcode 9 "$bin" \
    --gtest_filter="$filter" >"$log" 2>&1
  local rc=$?
  local summary errors
  summary=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)
  errors=$(echo "$summary" | grep -oE '[0-9]+ (errors|hazards)' | head -1 | cut -d' ' -f1)
  note "compute-sanitizer $tool $(basename "$bin") ($filter): rc=$rc $summary"
  row "$suite" "compute-sanitizer $tool $(basename "$bin") $filter" "" errors "${errors:-rc$rc}" \
    count "compute-sanitizer --tool $tool $(basename "$bin") --gtest_filter=$filter"
}

#!/bin/sh
# Builds the libFuzzer targets (clang, ASan + UBSan) in BUILD_DIR and runs each for SECONDS on
# its committed corpus and regressions plus random mutations. CTest's fuzz_smoke runs it for a few
# seconds per target; docs/fuzzing.md runs it for hours.
#   fuzz/run_fuzzers.sh BUILD_DIR SECONDS [TARGET...]      (targets: all when none are named)
# New inputs go to BUILD_DIR/corpus/TARGET (never into the source tree); a crash, leak, timeout,
# broken contract or an allocation over 64 MB fails the run and leaves BUILD_DIR/artifacts/.
# Exit 77 (CTest: skipped) when clang or its fuzzer runtime is missing ('make deps' installs them).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(dirname "$here")
build=${1:?usage: run_fuzzers.sh BUILD_DIR SECONDS [TARGET...]}
seconds=${2:?usage: run_fuzzers.sh BUILD_DIR SECONDS [TARGET...]}
shift 2
targets=${*:-"dimacs mtx edgelist csv course npy npy_header vertex_labels cli_values"}

if ! command -v clang++ >/dev/null 2>&1 ||
   ! echo 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }' |
     clang++ -x c++ -fsanitize=fuzzer,address,undefined -o /dev/null - >/dev/null 2>&1; then
  echo "skipped: clang++ with -fsanitize=fuzzer is not installed (make deps installs it)"
  exit 77
fi

# The build's output goes to a log that is shown when it fails (ninja reports errors on stdout);
# a failed build is tried once more before that, so that a compiler killed on a loaded machine
# does not fail the run, while a real error fails both tries.
mkdir -p "$build"
if [ ! -f "$build/build.ninja" ]; then
  if ! cmake -S "$source_dir" --preset fuzz -B "$build" >"$build/configure.log" 2>&1; then
    echo "fuzz build: configuring failed; its log ($build/configure.log) ends:"
    tail -30 "$build/configure.log"
    exit 1
  fi
fi
if ! cmake --build "$build" --target fuzzers -j "$(nproc)" >"$build/build.log" 2>&1 &&
   ! cmake --build "$build" --target fuzzers -j 1 >>"$build/build.log" 2>&1; then
  echo "fuzz build failed twice; its log ($build/build.log) ends:"
  tail -40 "$build/build.log"
  exit 1
fi

# One core per fuzzer (the readers' OpenMP loops still run, on one thread): on a shared machine
# one fuzzer at a time then takes one core.
OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
export OMP_NUM_THREADS

mkdir -p "$build/artifacts"
status=0
for t in $targets; do
  case $t in
    dimacs | mtx | edgelist | csv) dict="-dict=$here/dict/$t.dict" ;;
    npy | npy_header) dict="-dict=$here/dict/npy.dict" ;;
    cli_values) dict="-dict=$here/dict/cli.dict" ;;
    *) dict= ;;
  esac
  mkdir -p "$build/corpus/$t"
  seeds="$here/corpus/$t"
  regressions=
  [ -d "$here/regressions/$t" ] && regressions="$here/regressions/$t"
  log="$build/fuzz_$t.log"
  # -malloc_limit_mb: no input of at most 4 KiB may make a reader allocate 64 MB at once.
  if "$build/fuzz/fuzz_$t" $dict -max_total_time="$seconds" -max_len=4096 -timeout=10 \
       -malloc_limit_mb=64 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$build/artifacts/$t-" \
       "$build/corpus/$t" "$seeds" $regressions >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    # No DONE line (a loaded machine can spend the whole time on the seed corpus) is no failure;
    # under `set -e` a grep that finds nothing here would end the script without a word.
    cov=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+' ||
      echo "cov: not reported")
    printf 'fuzz_%-14s %10s execs  %s\n' "$t" "$runs" "$cov"
  else
    status=1
    echo "fuzz_$t FAILED; its log ($log) ends:"
    tail -40 "$log"
  fi
done
exit $status

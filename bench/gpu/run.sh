#!/usr/bin/env bash
# The benchmark driver for a GPU machine: one call builds once (sm_90a, Ninja, every core),
# runs the named suites in order, writes every measurement to $OUT/results.csv in one schema
# (date, device, commit, suite, variant, case, n, metric, value, unit, command), packs the
# logs and the programs' own CSVs into $OUT/logs.tgz and prints a short table last.
#   APSP_COMMIT=abc1234 bench/gpu/run.sh SUITE...        (bench/gpu/run.sh --list)
# The suites, their settings and the old script each replaces: bench/gpu/README.md.
# Env: OUT (default /tmp/apsp-gpu; at most 8 files come back from it: results.csv,
# summary.txt, table.txt, logs.tgz), WORK (scratch, /tmp/apsp-bench), BUILD (build-gpu),
# APSP_COMMIT, STOP_AFTER_S (start no suite after that many seconds).
set -uo pipefail
DRIVER_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$DRIVER_DIR/../.." && pwd)
cd "$ROOT" || exit 1
source "$DRIVER_DIR/lib.sh"
# Suite name -> function, the build targets it needs, one line of what it measures; each
# suites/*.sh declares its own with `suite NAME FUNCTION "TARGETS" "WHAT IT MEASURES"`.
declare -A SUITE_FN SUITE_TARGETS SUITE_HELP
SUITE_ORDER=()
suite() { SUITE_FN[$1]=$2; SUITE_TARGETS[$1]=$3; SUITE_HELP[$1]=$4; SUITE_ORDER+=("$1"); }
for f in "$DRIVER_DIR"/suites/*.sh; do source "$f"; done

usage() {
  echo "usage: APSP_COMMIT=... bench/gpu/run.sh SUITE...; suites:"
  for s in "${SUITE_ORDER[@]}"; do printf '  %-14s %s\n' "$s" "${SUITE_HELP[$s]}"; done
}
[[ $# -eq 0 || $1 == --list || $1 == -h || $1 == --help ]] && { usage; exit 0; }
for s in "$@" ${AB_SUITES:-}; do
  [[ -n ${SUITE_FN[$s]:-} ]] || { echo "unknown suite: $s"; usage; exit 2; }
done

driver_setup
export DRIVER_DIR ROOT
# Everything but the CSV and the summary goes into logs.tgz, after each suite (a call stopped
# by the device tool's time limit keeps the finished suites' logs) and at the end.
pack_logs() {
  find "$WORK" -maxdepth 3 \( -name '*.bin' -o -name '*.npy' -o -name '*.gr' \
    -o -name '*.ncu-rep' \) -size +1M -delete 2>/dev/null
  tar -C "$WORK" -czf "$OUT/logs.tgz.part" . 2>/dev/null && mv "$OUT/logs.tgz.part" "$OUT/logs.tgz"
}
pack() {
  local status=$?
  pack_logs
  echo "================ summary ($*) ================"
  cat "$SUMMARY"
  echo "================ results ($CSV) ================"
  python3 "$DRIVER_DIR/rows.py" table "$CSV" | tee "$OUT/table.txt"
  exit "$status"
}
trap 'pack "$@"' EXIT

targets=()
for s in "$@"; do
  read -ra t <<<"${SUITE_TARGETS[$s]}"
  targets+=("${t[@]}")
  [[ $s == ab ]] && targets+=($(ab_targets)) # the measured suites' targets, in this tree too
done
if ((${#targets[@]})); then
  build . "$BUILD" "${targets[@]}" || exit 1
fi
# STOP_AFTER_S: no suite starts after that many seconds of the call (the device tool stops a
# command at 10 minutes).
call_start=$EPOCHREALTIME
for s in "$@"; do
  if [[ -n ${STOP_AFTER_S:-} ]] &&
    python3 -c "import sys; sys.exit(0 if $EPOCHREALTIME - $call_start > ${STOP_AFTER_S} else 1)"; then
    note "---- $s: not started (STOP_AFTER_S=$STOP_AFTER_S reached)"
    continue
  fi
  note "---- $s"
  t0=$EPOCHREALTIME
  "${SUITE_FN[$s]}"
  note "---- $s: rc=$? in $(since "$t0") s"
  pack_logs
done

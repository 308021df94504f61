#!/usr/bin/env bash
# Where the whole run's wall time goes (n = 20000 course binary in and out): a syscall timeline
# (strace -tt) and per-stage JSON, with and without --map-output. Run after a build.
#   BUILD=build-gpu scripts/gpu_profile_wholerun.sh
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/apsp-gpu}
BUILD=${BUILD:-build-gpu}
W=${WORK:-/tmp/apsp-wholerun}
mkdir -p "$OUT" "$W"
df -h "$W" | tail -1
[[ -f $W/g20000.bin ]] || python3 -c "
import sys; sys.path.insert(0, 'bench/cuda'); import wholerun; wholerun.make_graph('$W/g20000.bin', 20000, 20000)"
A="$BUILD/cli/apsp"
t() { local s=$EPOCHREALTIME; "$@" >/dev/null 2>&1; local e=$EPOCHREALTIME
  python3 -c "print(f'{$e - $s:.3f} s: ${*#$A }')"; }
t "$A" --version
t "$A" info "$W/g20000.bin"
t "$A" solve "$W/g20000.bin" --quiet
t "$A" solve "$W/g20000.bin" -o "$W/d.bin" --quiet
t "$A" solve "$W/g20000.bin" -o "$W/d.bin" --quiet --map-output
"$A" solve "$W/g20000.bin" -o "$W/d.bin" --json --quiet | python3 -c "import json,sys; print('stages', json.load(sys.stdin)['seconds'])"
"$A" solve "$W/g20000.bin" -o "$W/d.bin" --json --quiet --map-output | python3 -c "import json,sys; print('stages mapped', json.load(sys.stdin)['seconds'])"
strace -f -tt -e trace=execve,openat,read,pread64,write,pwrite64,rename,munmap,exit_group,ftruncate \
  -o "$OUT/strace_wholerun.txt" "$A" solve "$W/g20000.bin" -o "$W/d.bin" --quiet
grep -vE 'openat\(.*(/proc|/sys|\.so)' "$OUT/strace_wholerun.txt" | awk '{ $1=""; print }' |
  grep -vE 'read\(.*, [0-9]{1,4}\) *= [0-9]{1,4}$' | head -150 >"$OUT/strace_short.txt"
wc -l "$OUT/strace_wholerun.txt"

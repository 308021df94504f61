#!/usr/bin/env bash
# The distributed solver with cpu ranks beside the one-process cpu back end on this machine:
# a random graph (n^2/16 edges, weights 1..999), whole `apsp solve` runs, solve stage from
# --json, minimum of REPEAT runs. Appends rows to bench/results/mpi_cpu_DATE.csv.
#   bench/mpi/cpu_ranks.sh [BUILD] [N] [REPEAT]
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=${1:-build}; N=${2:-3000}; REPEAT=${3:-3}
A=$BUILD/cli/apsp
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
DATE=$(date -u +%Y-%m-%d); COMMIT=$(git rev-parse --short HEAD)
DEVICE="$(lscpu | sed -n 's/^Model name: *//p' | head -1) ($(nproc) cpus)"
CSV=bench/results/mpi_cpu_$DATE.csv
[[ -f $CSV ]] || echo "date,device,commit,command,n,config,solve_seconds,updates_per_s" >"$CSV"
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
/usr/bin/python3 - "$TMP/g.bin" "$N" <<'PY'
import sys, struct, numpy as np
path, n = sys.argv[1], int(sys.argv[2]); m = n * n // 16
r = np.random.default_rng(1)
e = np.stack([r.integers(0, n, m), r.integers(0, n, m), r.integers(1, 1000, m)], 1).astype(np.int32)
open(path, "wb").write(struct.pack("<ii", n, m) + e.tobytes())
PY
measure() { # config, command...
  local config=$1; shift; local best=""
  for _ in $(seq "$REPEAT"); do
    local s; s=$("$@" --json 2>/dev/null | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["seconds"]["solve"])')
    best=$(/usr/bin/python3 -c "print(min(x for x in [$s${best:+,$best}]))")
  done
  local rate; rate=$(/usr/bin/python3 -c "print(f'{$N**3/$best:.4e}')")
  echo "$DATE,\"$DEVICE\",$COMMIT,\"$*\",$N,\"$config\",$best,$rate" | tee -a "$CSV"
}
measure "one process, cpu, 2 threads" $A solve "$TMP/g.bin" --backend cpu --threads 2
measure "1 rank, 2 threads" mpirun -np 1 $A solve "$TMP/g.bin" --backend cpu --threads 2
measure "2 ranks (1x2), 1 thread each, look-ahead" mpirun -np 2 $A solve "$TMP/g.bin" --threads 1
measure "2 ranks (1x2), 1 thread each, no look-ahead" mpirun -np 2 $A solve "$TMP/g.bin" --threads 1 --no-lookahead
measure "4 ranks (2x2), oversubscribed, 1 thread each" mpirun -np 4 --oversubscribe $A solve "$TMP/g.bin" --threads 1

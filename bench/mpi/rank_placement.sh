#!/usr/bin/env bash
# GPU and cpu ranks however they are launched (docs/distributed.md, "Where ranks run"): on one
# machine with 4 GPUs, `mpirun -np P apsp solve` under the launcher's default placement, with
# --bind-to none and with --bind-to core, each with apsp's own placement (--rank-cpus auto) and
# without it (--rank-cpus launcher), beside one process with --devices. Solve stage from --json,
# no output files; graphs with 20 out-edges per vertex, weights 1..100. Every row (with each
# rank's compute / communication / wait / download seconds, CPUs and busiest threads) goes to
# $OUT/mpi_rank_placement.csv (bench/mpi/rank_row.py), one line per run to the summary.
#
# SUITE (several may be named, space-separated):
#   diagnose  n = 40,000: which launch is slow and which threads compete (environment
#             variations of the unplaced ranks), then apsp's placement, on the default grid
#   grids     n = 40,000 and 80,000: --devices 0,1,2,3 against 4 placed ranks on every grid,
#             default mpirun; 2 ranks against --devices 0,1 at n = 80,000
#   weak      40,000 x 40,000 per GPU: n = 40,000 / 56,569 / 80,000 on 1 / 2 / 4 ranks
#   cpu       cpu ranks: mpirun -np 4 --backend cpu against one process on every core, n = 8,000
#   correct   4 GPU ranks on every grid, with and without look-ahead, byte-identical to one
#             GPU, paths re-weighed along the graph; SIGKILL during a checkpointed solve and
#             --resume gives the same bytes
#   download  n = 40,000 twice: unplaced and placed ranks with each rank's download time, grid
#             4x1, --devices 0,1,2,3
#   tests     the gpu-labelled CTests
#   SUITE="diagnose tests" OUT=/tmp/x bench/mpi/rank_placement.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/gpu_build.sh
gpu_script_setup summary_rank_placement.txt
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SUITE=${SUITE:-diagnose}
t_build=$EPOCHREALTIME
if [[ " $SUITE " == *" tests "* ]]; then
  gpu_build_targets apsp_cli all || exit 1
else
  gpu_build_targets apsp_cli || exit 1
fi
note "build: $(python3 -c "print(f'{$EPOCHREALTIME - $t_build:.0f}')") s"
A=$(find "$BUILD" -name apsp -type f -perm -u+x | head -1)
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
gpus=$(nvidia-smi -L | wc -l)
DEVICE="${gpus}x $gpu, $(nproc) CPUs"
note "device: $DEVICE; $(nvidia-smi topo -m 2>/dev/null | sed -n 2p | tr -s ' \t' ' ')"
csv="$OUT/mpi_rank_placement.csv"
mkdir -p "$OUT/runs"
MPI="mpirun --oversubscribe"

graph() { # n -> $OUT/g$n.bin (20 out-edges per vertex)
  [[ -f $OUT/g$1.bin ]] && return
  python3 bench/random_graph.py "$OUT/g$1.bin" "$1" --per-vertex 20
}
# case CONFIG N [env VAR=...] [mpirun ARGS... --] solve ARGS...: one run, one row.
k=0
case_() {
  local config=$1 n=$2
  shift 2
  k=$((k + 1))
  local j="$OUT/runs/run$k.json"
  "$@" >"$j" 2>"${j%.json}.err"
  local shown="$*"
  shown=${shown//$A/apsp}
  shown=${shown//$OUT\//}
  note "$(python3 bench/mpi/rank_row.py "$j" "$csv" "$DATE" "$DEVICE" "$APSP_COMMIT" "$shown" \
    "$config")"
}
solve() { echo "$A solve $OUT/g$1.bin --backend cuda --algorithm fw --json"; }

if [[ " $SUITE " == *" diagnose "* ]]; then
  graph 40000
  s=$(solve 40000)
  case_ "one process --devices 0,1,2,3" 40000 $s --devices 0,1,2,3
  case_ "4 ranks, mpirun default, launcher placement" 40000 $MPI -np 4 $s --rank-cpus launcher
  case_ "4 ranks, --bind-to none, launcher placement" 40000 $MPI -np 4 --bind-to none $s --rank-cpus launcher
  case_ "4 ranks, --bind-to none, launcher, OMP_NUM_THREADS=1" 40000 $MPI -np 4 --bind-to none -x OMP_NUM_THREADS=1 $s --rank-cpus launcher
  case_ "4 ranks, --bind-to none, launcher, OMP_WAIT_POLICY=passive" 40000 $MPI -np 4 --bind-to none -x OMP_WAIT_POLICY=passive $s --rank-cpus launcher
  case_ "4 ranks, --bind-to none, launcher, APSP_CUDA_PREFAULT=0" 40000 $MPI -np 4 --bind-to none -x APSP_CUDA_PREFAULT=0 $s --rank-cpus launcher
  case_ "4 ranks, --bind-to none, launcher, NCCL_IGNORE_CPU_AFFINITY=1" 40000 $MPI -np 4 --bind-to none -x NCCL_IGNORE_CPU_AFFINITY=1 $s --rank-cpus launcher
  case_ "4 ranks, --bind-to core, launcher placement" 40000 $MPI -np 4 --bind-to core $s --rank-cpus launcher
  case_ "4 ranks, --map-by slot:PE=16, launcher placement" 40000 $MPI -np 4 --map-by slot:PE=16 $s --rank-cpus launcher
  for rep in 1 2; do
    case_ "4 ranks, mpirun default, apsp placement" 40000 $MPI -np 4 $s
    case_ "4 ranks, --bind-to none, apsp placement" 40000 $MPI -np 4 --bind-to none $s
    case_ "4 ranks, --bind-to core, apsp placement" 40000 $MPI -np 4 --bind-to core $s
    case_ "one process --devices 0,1,2,3" 40000 $s --devices 0,1,2,3
    case_ "4 ranks, mpirun default, launcher placement" 40000 $MPI -np 4 $s --rank-cpus launcher
  done
fi

if [[ " $SUITE " == *" download "* ]]; then
  # Where the unplaced ranks' time goes (each rank's download of its tiles), and 4x1 again.
  graph 40000
  s=$(solve 40000)
  for rep in 1 2; do
    case_ "one process --devices 0,1,2,3" 40000 $s --devices 0,1,2,3
    case_ "4 ranks, mpirun default, launcher placement" 40000 $MPI -np 4 $s --rank-cpus launcher
    case_ "4 ranks, mpirun default, apsp placement" 40000 $MPI -np 4 $s
    case_ "4 ranks, mpirun default, apsp placement, grid 4x1" 40000 $MPI -np 4 $s --grid 4x1
  done
fi

if [[ " $SUITE " == *" grids "* ]]; then
  for n in 40000 80000; do
    graph $n
    s=$(solve $n)
    case_ "one process --devices 0,1,2,3" $n $s --devices 0,1,2,3
    for grid in "" 4x1 1x4; do
      case_ "4 ranks, mpirun default, apsp placement${grid:+, grid $grid}" $n $MPI -np 4 $s ${grid:+--grid $grid}
    done
    case_ "4 ranks, --bind-to core, launcher placement" $n $MPI -np 4 --bind-to core $s --rank-cpus launcher
  done
  s=$(solve 80000)
  case_ "one process --devices 0,1" 80000 $s --devices 0,1
  case_ "2 ranks, mpirun default, apsp placement" 80000 $MPI -np 2 $s
  case_ "2 ranks, --bind-to none, apsp placement" 80000 $MPI -np 2 --bind-to none $s
fi

if [[ " $SUITE " == *" weak "* ]]; then
  for pn in "1 40000" "2 56569" "4 80000"; do
    read -r p n <<<"$pn"
    graph $n
    case_ "weak: $p ranks, mpirun default, apsp placement" $n $MPI -np $p $(solve $n)
  done
fi

if [[ " $SUITE " == *" cpu "* ]]; then
  python3 bench/random_graph.py "$OUT/c8000.bin" 8000
  c="$A solve $OUT/c8000.bin --backend cpu --algorithm fw --json"
  case_ "cpu: one process, every core" 8000 $c
  case_ "cpu: 4 ranks, mpirun default, apsp placement" 8000 $MPI -np 4 $c
  case_ "cpu: 4 ranks, --bind-to none, apsp placement" 8000 $MPI -np 4 --bind-to none $c
  case_ "cpu: 4 ranks, --bind-to none, launcher placement" 8000 $MPI -np 4 --bind-to none $c --rank-cpus launcher
  case_ "cpu: one process, every core" 8000 $c
fi

if [[ " $SUITE " == *" correct "* ]]; then
  awk -v n=3000 -v m=200000 'BEGIN { srand(7); print "p sp", n, m;
    for (e = 0; e < m; e++) printf "a %d %d %d\n", int(rand()*n)+1, int(rand()*n)+1, int(rand()*999)+1 }' >"$OUT/c.gr"
  $A solve "$OUT/c.gr" -o "$OUT/one.npy" --backend cuda --no-map-output -q
  for grid in 2x2 1x4 4x1; do
    for la in --lookahead --no-lookahead; do
      $MPI -np 4 $A solve "$OUT/c.gr" -o "$OUT/four.npy" --paths "$OUT/four_via.npy" --backend cuda \
        --grid $grid $la --block 256 -q 2>"$OUT/four.err"
      same=$(cmp -s "$OUT/one.npy" "$OUT/four.npy" && echo IDENTICAL || echo "DIFFER ($(tail -1 "$OUT/four.err"))")
      for s in 1 17 1234 2999; do
        for t in 3000 5 777; do
          $A path "$OUT/c.gr" $s $t --dist "$OUT/four.npy" --via "$OUT/four_via.npy" --json
        done
      done >"$OUT/paths.jsonl"
      walks=$(awk 'FNR == NR { if ($1 == "a") { k = $2 " " $3; if (!(k in w) || $4 < w[k]) w[k] = $4 }; next }
        { gsub(/[{}\[\]":,]/, " "); n = split($0, f, " "); len = f[6]; s = 0; bad = 0;
          for (i = 8; i < n; i++) { k = f[i] " " f[i+1]; if (!(k in w)) bad = 1; s += w[k] }
          if (bad || s != len) wrong++; total++ }
        END { printf "%d of %d", total - wrong, total }' "$OUT/c.gr" "$OUT/paths.jsonl")
      note "correct: 4 GPU ranks, grid $grid $la: distances vs one GPU $same; $walks sampled paths are shortest walks"
    done
  done
  # SIGKILL on every rank once a checkpoint is committed, then --resume: the same bytes as one
  # GPU, and the resumed run starts after round 0.
  graph 12000
  $A solve "$OUT/g12000.bin" -o "$OUT/ref.npy" --backend cuda --algorithm fw --no-map-output -q
  rm -rf "$OUT/ck"
  $MPI -np 4 $A solve "$OUT/g12000.bin" -o "$OUT/r.npy" --backend cuda --algorithm fw \
    --checkpoint "$OUT/ck" --checkpoint-every 0.2 --block 256 -q 2>"$OUT/kill.err" &
  pid=$!
  for _ in $(seq 300); do
    sleep 0.05
    [[ -f $OUT/ck/manifest ]] && break
  done
  sleep 0.2
  pkill -KILL -f "apsp solve $OUT/g12000.bin"
  wait $pid 2>/dev/null
  done_rounds=$(grep -m1 -E '^(round|rounds|done)' "$OUT/ck/manifest" 2>/dev/null | tr '\n' ' ')
  $MPI -np 4 $A solve "$OUT/g12000.bin" -o "$OUT/r.npy" --backend cuda --algorithm fw \
    --resume "$OUT/ck" --block 256 --progress 2>"$OUT/resume.err" >/dev/null
  note "correct: SIGKILL on 4 GPU ranks (manifest: ${done_rounds:-none}; output before resume: $([[ -f $OUT/r.npy ]] && echo present || echo absent)), --resume: $(grep -m1 -i 'resum' "$OUT/resume.err" | cut -c1-100); distances vs one GPU $(cmp -s "$OUT/ref.npy" "$OUT/r.npy" && echo IDENTICAL || echo "DIFFER ($(tail -1 "$OUT/resume.err"))")"
fi

if [[ " $SUITE " == *" tests "* ]]; then
  (cd "$BUILD" && timeout 400 ctest -L gpu -j1 --output-on-failure >"$OUT/ctest_gpu.log" 2>&1)
  note "gpu tests: $(grep -E 'tests passed|tests failed' "$OUT/ctest_gpu.log")"
  grep -E "^\s+[0-9]+ - .*(Failed|Timeout)" "$OUT/ctest_gpu.log" | head -10 | tee -a "$summary"
fi
rm -f "$OUT"/*.bin "$OUT"/*.npy "$OUT"/*.gr "$OUT"/*.jsonl
rm -rf "$OUT/ck"
# At most 8 files come back from the device machine: the runs' JSON and errors in one archive.
tar -czf "$OUT/runs.tgz" -C "$OUT" runs *.err 2>/dev/null && rm -rf "$OUT/runs" "$OUT"/*.err
cat "$summary"

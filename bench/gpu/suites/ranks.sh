# MPI ranks with one GPU each, against one process with --devices: timings, placement and
# correctness. Rows of the rank runs go through bench/mpi/rank_row.py (each rank's compute /
# communication / wait / download seconds, CPUs and busiest threads stay in its own CSV, packed
# in logs.tgz) and are imported into the common schema.

MPI_RUN="mpirun --oversubscribe"

# rank_case SUITE CONFIG COMMAND...: one run, one row (rank_row.py), summary line.
RANK_K=0
rank_case() {
  local suite=$1 config=$2
  shift 2
  RANK_K=$((RANK_K + 1))
  mkdir -p "$WORK/runs"
  local j="$WORK/runs/${suite}_run$RANK_K.json" shown="$*" native="$WORK/${suite}_ranks${VARIANT_TAG:+_$VARIANT_TAG}.csv"
  "$@" >"$j" 2>"${j%.json}.err"
  shown=${shown//$RANK_APSP/apsp}
  shown=${shown//$WORK\//}
  note "$(python3 bench/mpi/rank_row.py "$j" "$native" "$DATE" "$DEVICE" \
    "${VARIANT_COMMIT:-$APSP_COMMIT}" "$shown" "$config")"
}
rank_solve() { echo "$RANK_APSP solve $WORK/g$1.bin --backend cuda --algorithm fw --json"; }
# rank_import SUITE: the rows of this suite's rank runs into the common schema.
rank_import() {
  local native="$WORK/${1}_ranks${VARIANT_TAG:+_$VARIANT_TAG}.csv"
  [[ -f $native ]] && import_csv "$1" "$native" config && mv "$native" "$native.imported.$RANDOM"
}

suite ranks suite_ranks "apsp_cli" \
  "2 GPU ranks (mpirun -np 2 --bind-to none, grid 1x2) against --devices 0,1 at RANKS_SIZES (80000), blocks BLOCKS (512 1024), look-ahead VARIANTS (auto --lookahead --no-lookahead); ONE_GPU=1 adds one GPU, IN_PROCESS=0 drops --devices 0,1; LA_SIZES adds --devices 0,1 with APSP_CUDA_LOOKAHEAD=0/1 (was bench/mpi/gpu_ranks.sh, gpu_multi.sh, gpu_two_gpu_targets.sh)"
suite_ranks() {
  RANK_APSP=$(program apsp)
  local n b v la variants
  read -ra variants <<<"${VARIANTS:-auto --lookahead --no-lookahead}"
  for n in ${RANKS_SIZES:-80000}; do
    sparse_graph "$WORK/g$n.bin" "$n"
    # The arguments of bench/mpi/gpu_ranks.sh, which this suite replaces: --algorithm fw in one
    # process (under auto a sparse graph may go to the cpu), --backend cuda for the ranks.
    local g="$WORK/g$n.bin"
    [[ ${ONE_GPU:-0} == 1 ]] &&
      rank_case ranks "one GPU, one process" "$RANK_APSP" solve "$g" --devices 0 --algorithm fw --json
    [[ ${IN_PROCESS:-1} == 1 ]] &&
      rank_case ranks "in-process --devices 0,1" "$RANK_APSP" solve "$g" --devices 0,1 --algorithm fw --json
    for b in ${BLOCKS:-512 1024}; do
      for v in "${variants[@]}"; do
        la=$([[ $v == auto ]] || echo "$v")
        rank_case ranks "2 GPU ranks (grid 1x2), block $b, look-ahead $v" \
          mpirun -np 2 --bind-to none -x NCCL_NVLS_ENABLE "$RANK_APSP" solve "$g" --backend cuda \
          --block "$b" $la --json
      done
    done
    rm -f "$WORK/g$n.bin"
  done
  for n in ${LA_SIZES:-}; do
    sparse_graph "$WORK/g$n.bin" "$n"
    for la in 0 1; do
      rank_case ranks "in-process --devices 0,1, look-ahead $([[ $la == 1 ]] && echo on || echo off)" \
        env APSP_CUDA_LOOKAHEAD=$la "$RANK_APSP" solve "$WORK/g$n.bin" --devices 0,1 --algorithm fw --json
    done
    rm -f "$WORK/g$n.bin"
  done
  rank_import ranks
}

suite placement suite_placement "apsp_cli" \
  "GPU and cpu ranks however launched (4 GPUs): PLACEMENT, any of diagnose grids weak cpu download correct (default diagnose), see docs/distributed.md 'Where ranks run' (was bench/mpi/rank_placement.sh)"
suite_placement() {
  RANK_APSP=$(program apsp)
  local A=$RANK_APSP MPI=$MPI_RUN s n grid rep pn p c P=" ${PLACEMENT:-diagnose} "
  local R=rank_case
  graph() { sparse_graph "$WORK/g$1.bin" "$1"; }
  if [[ $P == *" diagnose "* ]]; then
    graph 40000
    s=$(rank_solve 40000)
    $R placement "one process --devices 0,1,2,3" $s --devices 0,1,2,3
    $R placement "4 ranks, mpirun default, launcher placement" $MPI -np 4 $s --rank-cpus launcher
    $R placement "4 ranks, --bind-to none, launcher placement" $MPI -np 4 --bind-to none $s --rank-cpus launcher
    $R placement "4 ranks, --bind-to none, launcher, OMP_NUM_THREADS=1" $MPI -np 4 --bind-to none -x OMP_NUM_THREADS=1 $s --rank-cpus launcher
    $R placement "4 ranks, --bind-to none, launcher, OMP_WAIT_POLICY=passive" $MPI -np 4 --bind-to none -x OMP_WAIT_POLICY=passive $s --rank-cpus launcher
    $R placement "4 ranks, --bind-to none, launcher, APSP_CUDA_PREFAULT=0" $MPI -np 4 --bind-to none -x APSP_CUDA_PREFAULT=0 $s --rank-cpus launcher
    $R placement "4 ranks, --bind-to none, launcher, NCCL_IGNORE_CPU_AFFINITY=1" $MPI -np 4 --bind-to none -x NCCL_IGNORE_CPU_AFFINITY=1 $s --rank-cpus launcher
    $R placement "4 ranks, --bind-to core, launcher placement" $MPI -np 4 --bind-to core $s --rank-cpus launcher
    $R placement "4 ranks, --map-by slot:PE=16, launcher placement" $MPI -np 4 --map-by slot:PE=16 $s --rank-cpus launcher
    for rep in 1 2; do
      $R placement "4 ranks, mpirun default, apsp placement" $MPI -np 4 $s
      $R placement "4 ranks, --bind-to none, apsp placement" $MPI -np 4 --bind-to none $s
      $R placement "4 ranks, --bind-to core, apsp placement" $MPI -np 4 --bind-to core $s
      $R placement "one process --devices 0,1,2,3" $s --devices 0,1,2,3
      $R placement "4 ranks, mpirun default, launcher placement" $MPI -np 4 $s --rank-cpus launcher
    done
  fi
  if [[ $P == *" download "* ]]; then
    graph 40000
    s=$(rank_solve 40000)
    for rep in 1 2; do
      $R placement "one process --devices 0,1,2,3" $s --devices 0,1,2,3
      $R placement "4 ranks, mpirun default, launcher placement" $MPI -np 4 $s --rank-cpus launcher
      $R placement "4 ranks, mpirun default, apsp placement" $MPI -np 4 $s
      $R placement "4 ranks, mpirun default, apsp placement, grid 4x1" $MPI -np 4 $s --grid 4x1
    done
  fi
  if [[ $P == *" grids "* ]]; then
    for n in 40000 80000; do
      graph $n
      s=$(rank_solve $n)
      $R placement "one process --devices 0,1,2,3" $s --devices 0,1,2,3
      for grid in "" 4x1 1x4; do
        $R placement "4 ranks, mpirun default, apsp placement${grid:+, grid $grid}" $MPI -np 4 $s ${grid:+--grid $grid}
      done
      $R placement "4 ranks, --bind-to core, launcher placement" $MPI -np 4 --bind-to core $s --rank-cpus launcher
    done
    s=$(rank_solve 80000)
    $R placement "one process --devices 0,1" $s --devices 0,1
    $R placement "2 ranks, mpirun default, apsp placement" $MPI -np 2 $s
    $R placement "2 ranks, --bind-to none, apsp placement" $MPI -np 2 --bind-to none $s
  fi
  if [[ $P == *" weak "* ]]; then
    for pn in "1 40000" "2 56569" "4 80000"; do
      read -r p n <<<"$pn"
      graph $n
      $R placement "weak: $p ranks, mpirun default, apsp placement" $MPI -np $p $(rank_solve $n)
    done
  fi
  if [[ $P == *" cpu "* ]]; then
    # CPU_SIZES (8000), CPU_REPEATS (1) rounds; CPU_AB: environment settings (e.g.
    # APSP_CPU_RANK_OVERLAP=0 or APSP_CPU_RANK_OVERLAP=0,APSP_CPU_SPIN=0) each run as a further
    # 4-rank case; CPU_PROFILE=1 adds a run with
    # APSP_CPU_PROFILE=1 (each thread's phases, in the logs).
    for n in ${CPU_SIZES:-8000}; do
      python3 bench/random_graph.py "$WORK/c$n.bin" "$n"
      c="$A solve $WORK/c$n.bin --backend cpu --algorithm fw --json"
      for rep in $(seq "${CPU_REPEATS:-1}"); do
        $R placement "cpu: one process, every core" $c
        $R placement "cpu: 4 ranks, mpirun default, apsp placement" $MPI -np 4 $c
        $R placement "cpu: 4 ranks, --bind-to none, apsp placement" $MPI -np 4 --bind-to none $c
        $R placement "cpu: 4 ranks, --bind-to none, launcher placement" $MPI -np 4 --bind-to none $c --rank-cpus launcher
        for v in ${CPU_AB:-}; do # NAME=VALUE[,NAME=VALUE...]
          local xs=() kv e
          IFS=, read -ra kv <<<"$v"
          for e in "${kv[@]}"; do xs+=(-x "$e"); done
          $R placement "cpu: 4 ranks, mpirun default, apsp placement, $v" $MPI -np 4 "${xs[@]}" $c
        done
      done
      if [[ ${CPU_PROFILE:-0} == 1 ]]; then
        $R placement "cpu: one process, every core, APSP_CPU_PROFILE=1" env APSP_CPU_PROFILE=1 $c
        $R placement "cpu: 4 ranks, mpirun default, apsp placement, APSP_CPU_PROFILE=1" $MPI -np 4 -x APSP_CPU_PROFILE=1 $c
      fi
      rm -f "$WORK/c$n.bin"
    done
  fi
  [[ $P == *" correct "* ]] && placement_correct
  rm -f "$WORK"/g*.bin
  rank_import placement
}

# reweigh GRAPH.gr PATHS.jsonl: "K of N" sampled paths whose arcs (the cheapest of parallel
# ones) add up to the printed length.
reweigh() {
  awk 'FNR == NR { if ($1 == "a") { k = $2 " " $3; if (!(k in w) || $4 < w[k]) w[k] = $4 }; next }
    { gsub(/[{}\[\]":,]/, " "); n = split($0, f, " "); len = f[6]; s = 0; bad = 0;
      for (i = 8; i < n; i++) { k = f[i] " " f[i+1]; if (!(k in w)) bad = 1; s += w[k] }
      if (bad || s != len) wrong++; total++ }
    END { printf "%d of %d", total - wrong, total }' "$1" "$2"
}
# dimacs_graph N M SEED PATH: a random DIMACS graph (awk only), weights 1..999.
dimacs_graph() {
  awk -v n="$1" -v m="$2" -v seed="$3" 'BEGIN { srand(seed); print "p sp", n, m;
    for (e = 0; e < m; e++) printf "a %d %d %d\n", int(rand()*n)+1, int(rand()*n)+1, int(rand()*999)+1 }' >"$4"
}
# sample_paths APSP GRAPH DIST VIA: the 12 sampled `apsp path` queries as JSON lines.
sample_paths() {
  local s t
  for s in 1 17 1234 2999; do
    for t in 3000 5 777; do
      "$1" path "$2" $s $t --dist "$3" --via "$4" --json
    done
  done
}

# 4 GPU ranks on every grid byte-identical to one GPU, paths re-weighed; SIGKILL then --resume.
placement_correct() {
  local A=$RANK_APSP MPI=$MPI_RUN grid la same walks pid done_rounds
  dimacs_graph 3000 200000 7 "$WORK/c.gr"
  $A solve "$WORK/c.gr" -o "$WORK/one.npy" --backend cuda --no-map-output -q
  for grid in 2x2 1x4 4x1; do
    for la in --lookahead --no-lookahead; do
      $MPI -np 4 $A solve "$WORK/c.gr" -o "$WORK/four.npy" --paths "$WORK/four_via.npy" --backend cuda \
        --grid $grid $la --block 256 -q 2>"$WORK/four.err"
      cmp -s "$WORK/one.npy" "$WORK/four.npy" && same=IDENTICAL || same="DIFFER ($(tail -1 "$WORK/four.err"))"
      sample_paths "$A" "$WORK/c.gr" "$WORK/four.npy" "$WORK/four_via.npy" >"$WORK/paths.jsonl"
      walks=$(reweigh "$WORK/c.gr" "$WORK/paths.jsonl")
      note "correct: 4 GPU ranks, grid $grid $la: distances vs one GPU $same; $walks sampled paths are shortest walks"
      row placement "correct: 4 GPU ranks, grid $grid $la" 3000 identical_to_one_gpu \
        "$([[ $same == IDENTICAL ]] && echo 1 || echo 0)" bool \
        "mpirun -np 4 apsp solve c.gr -o four.npy --paths four_via.npy --backend cuda --grid $grid $la --block 256"
    done
  done
  sparse_graph "$WORK/g12000.bin" 12000
  $A solve "$WORK/g12000.bin" -o "$WORK/ref.npy" --backend cuda --algorithm fw --no-map-output -q
  rm -rf "$WORK/ck"
  $MPI -np 4 $A solve "$WORK/g12000.bin" -o "$WORK/r.npy" --backend cuda --algorithm fw \
    --checkpoint "$WORK/ck" --checkpoint-every 0.2 --block 256 -q 2>"$WORK/kill.err" &
  pid=$!
  for _ in $(seq 300); do
    sleep 0.05
    [[ -f $WORK/ck/manifest ]] && break
  done
  sleep 0.2
  # The ranks of this call only: children of the mpirun started above.
  pkill -KILL -P "$pid" 2>/dev/null
  kill -KILL "$pid" 2>/dev/null
  pkill -KILL -f "apsp solve $WORK/g12000.bin"
  wait "$pid" 2>/dev/null
  done_rounds=$(grep -m1 -E '^(round|rounds|done)' "$WORK/ck/manifest" 2>/dev/null | tr '\n' ' ')
  $MPI -np 4 $A solve "$WORK/g12000.bin" -o "$WORK/r.npy" --backend cuda --algorithm fw \
    --resume "$WORK/ck" --block 256 --progress 2>"$WORK/resume.err" >/dev/null
  cmp -s "$WORK/ref.npy" "$WORK/r.npy" && same=IDENTICAL || same="DIFFER ($(tail -1 "$WORK/resume.err"))"
  note "correct: SIGKILL on 4 GPU ranks (manifest: ${done_rounds:-none}), --resume: $(grep -m1 -i 'resum' "$WORK/resume.err" | cut -c1-100); distances vs one GPU $same"
  row placement "correct: SIGKILL on 4 GPU ranks, --resume" 12000 identical_to_one_gpu \
    "$([[ $same == IDENTICAL ]] && echo 1 || echo 0)" bool \
    "mpirun -np 4 apsp solve g12000.bin -o r.npy --backend cuda --algorithm fw --checkpoint ck ... then --resume ck"
  rm -rf "$WORK/ck" "$WORK"/*.npy "$WORK"/c.gr "$WORK"/paths.jsonl
}

suite mpi suite_mpi "apsp_cli" \
  "2 GPU ranks (both on device 0 with one GPU) against one GPU: every grid and look-ahead byte-identical at n = 3000, paths re-weighed, verify, rome99; solve stage at TIME_N (20000) with one GPU, --devices 0,1 and 2 ranks with blocks 256 512 1024 (was gpu_mpi.sh)"
suite_mpi() {
  local A grid extra same n=${TIME_N:-20000} b
  A=$(program apsp)
  dimacs_graph 3000 200000 7 "$WORK/g.gr"
  $A solve "$WORK/g.gr" -o "$WORK/one.npy" --paths "$WORK/one_via.npy" --backend cuda --no-map-output \
    --json >"$WORK/one.json" 2>&1
  for grid in 1x2 2x1; do
    for extra in "" "--lookahead" "--no-lookahead" "--block 384"; do
      mpirun -np 2 --oversubscribe $A solve "$WORK/g.gr" -o "$WORK/two.npy" --backend cuda \
        --grid $grid $extra --json >"$WORK/two.json" 2>"$WORK/two.err"
      cmp -s "$WORK/one.npy" "$WORK/two.npy" && same=1 || same=0
      note "n=3000, 2 GPU ranks, grid $grid $extra ($(grep -o '"exchange": "[^"]*' "$WORK/two.json" | cut -c14-)): distances vs one GPU $( ((same)) && echo IDENTICAL || echo DIFFER)"
      row mpi "2 GPU ranks, grid $grid${extra:+ $extra}" 3000 identical_to_one_gpu "$same" bool \
        "mpirun -np 2 apsp solve g.gr -o two.npy --backend cuda --grid $grid${extra:+ $extra} --json"
    done
  done
  mpirun -np 2 --oversubscribe $A solve "$WORK/g.gr" -o "$WORK/two.npy" --paths "$WORK/two_via.npy" \
    --backend cuda --json >"$WORK/two.json" 2>"$WORK/two.err"
  note "n=3000, 2 GPU ranks with paths: distances vs one GPU $(cmp -s "$WORK/one.npy" "$WORK/two.npy" && echo IDENTICAL || echo DIFFER)"
  sample_paths "$A" "$WORK/g.gr" "$WORK/two.npy" "$WORK/two_via.npy" >"$WORK/paths.jsonl"
  note "$(reweigh "$WORK/g.gr" "$WORK/paths.jsonl") sampled paths are shortest walks"
  $A verify "$WORK/g.gr" "$WORK/two.npy" --sources 32 | tail -1 | sed 's/^/verify: /' | tee -a "$SUMMARY"
  mpirun -np 2 --oversubscribe $A solve data/rome99.gr --backend cuda --json >"$WORK/rome.json" 2>&1
  note "rome99 on 2 GPU ranks: $(grep -E 'distance_sum|max_distance' "$WORK/rome.json" | tr -d ' \n')"
  dimacs_graph "$n" $((n * 40)) 3 "$WORK/big.gr"
  timing() { # config command json
    local s
    s=$(json_stage "$3" solve)
    note "n=$n solve stage: $1 ${s:-FAILED} s"
    [[ -n $s ]] && row mpi "$1" "$n" solve_seconds "$s" s "$2"
  }
  $A solve "$WORK/big.gr" --backend cuda --json >"$WORK/t_one.json" 2>&1
  timing "one GPU" "apsp solve big.gr --backend cuda --json" "$WORK/t_one.json"
  if ((GPUS >= 2)); then
    $A solve "$WORK/big.gr" --backend cuda --devices 0,1 --json >"$WORK/t_dev2.json" 2>&1
    timing "--devices 0,1" "apsp solve big.gr --backend cuda --devices 0,1 --json" "$WORK/t_dev2.json"
  fi
  for b in 256 512 1024; do
    mpirun -np 2 --bind-to none $A solve "$WORK/big.gr" --backend cuda --block $b --json \
      >"$WORK/t_mpi_$b.json" 2>"$WORK/t_mpi_$b.err"
    timing "2 GPU ranks, block $b" "mpirun -np 2 --bind-to none apsp solve big.gr --backend cuda --block $b --json" \
      "$WORK/t_mpi_$b.json"
  done
  rm -f "$WORK"/*.npy "$WORK"/*.gr "$WORK/paths.jsonl"
}

# Whole runs of the apsp CLI (file in, solve, file out) and where their time goes.

suite wholerun suite_wholerun "apsp_cli" \
  "bench/cuda/wholerun.py: n = 20000 course binary to course binary (mapped output and --no-map-output), DE.gr to .npy with and without --paths, best of WHOLERUN_REPEAT (3) (was gpu_final.sh bench)"
suite_wholerun() {
  local dir="$WORK/wholerun${VARIANT_TAG:+_$VARIANT_TAG}"
  mkdir -p "$dir"
  timeout "${WHOLERUN_TIMEOUT:-240}" python3 bench/cuda/wholerun.py --apsp "$(program apsp)" \
    --data "$APSP_DATA_DIR" --out "$dir" --work "$WORK/wholerun_work" \
    --repeat "${WHOLERUN_REPEAT:-3}" --commit "${VARIANT_COMMIT:-$APSP_COMMIT}" \
    ${WHOLERUN_ONLY:+--only "$WHOLERUN_ONLY"} >"$dir/wholerun.log" 2>&1
  note "wholerun${VARIANT:+ [$VARIANT]}: rc=$?"
  grep -E "wholerun|graph|failed|skipped" "$dir/wholerun.log" | tee -a "$SUMMARY"
  local f
  for f in "$dir"/cuda_wholerun_*.csv; do import_csv wholerun "$f"; done
  # Imported: the next round starts a fresh file; the original stays for logs.tgz.
  for f in "$dir"/cuda_wholerun_*.csv; do [[ -f $f ]] && mv "$f" "$f.imported.$RANDOM"; done
}

# wall COMMAND...: seconds of one run, output discarded.
wall() {
  local s=$EPOCHREALTIME
  "$@" >/dev/null 2>&1
  since "$s"
}
median() { python3 -c "import sys,statistics; print(f'{statistics.median(map(float, sys.argv[1:])):.4f}')" "$@"; }

suite breakdown suite_breakdown "apsp_cli" \
  "where a whole run's time goes at small n: apsp --version, a bare CUDA context, apsp solve gN.bin -o d.bin (n^2/16 arcs) median of REPEAT (5) at BREAKDOWN_SIZES (5000 10000 20000) beside the variants in MODES (APSP_CUDA_STAGING_MB=64;--no-map-output), one traced run each; HOLD=1 keeps a context open (was gpu_breakdown.sh, gpu_lookahead.sh)"
suite_breakdown() {
  local A n mode i G holder="" cudart v w table="$WORK/breakdown_table${VARIANT_TAG:+_$VARIANT_TAG}.txt"
  local modes_list=${MODES-"APSP_CUDA_STAGING_MB=64;--no-map-output"}
  local repeat=${REPEAT:-5}
  A=$(program apsp)
  : >"$table"
  cudart=$(ls /usr/local/cuda/lib64/libcudart.so* 2>/dev/null | head -1)
  if [[ ${HOLD:-0} == 1 ]]; then
    rm -f "$WORK/held"
    python3 -c "import ctypes, time; ctypes.CDLL('$cudart').cudaFree(0); open('$WORK/held', 'w'); time.sleep(3600)" &
    holder=$!
    for i in $(seq 100); do [[ -e $WORK/held ]] && break; sleep 0.1; done
    echo "HOLD=1: a CUDA context held open by process $holder throughout" | tee -a "$table"
  fi
  v=(); for i in $(seq "$repeat"); do v+=("$(wall "$A" --version)"); done
  echo "process start and exit (apsp --version): median $(median "${v[@]}") s" | tee -a "$table"
  row breakdown "apsp --version" "" median_seconds "$(median "${v[@]}")" s "apsp --version (median of $repeat)"
  v=(); for i in $(seq "$repeat"); do
    v+=("$(wall python3 -c "import ctypes; ctypes.CDLL('$cudart').cudaFree(0)")"); done
  w=(); for i in $(seq "$repeat"); do w+=("$(wall python3 -c "import ctypes")"); done
  echo "python3 + cudaFree(0) (the CUDA context): median $(median "${v[@]}") s; python3 alone $(median "${w[@]}") s" |
    tee -a "$table"
  row breakdown "python3 + cudaFree(0)" "" median_seconds "$(median "${v[@]}")" s "python3 -c 'ctypes.CDLL(libcudart).cudaFree(0)' (median of $repeat)"
  row breakdown "python3 alone" "" median_seconds "$(median "${w[@]}")" s "python3 -c 'import ctypes' (median of $repeat)"
  for n in ${BREAKDOWN_SIZES:-5000 10000 20000}; do
    G="$WORK/g$n.bin"
    python3 bench/random_graph.py "$G" "$n" 16
    "$A" info "$G" >/dev/null 2>&1 # page cache warm, as for the timed runs
    local -a modes
    IFS=';' read -ra modes <<<"default;$modes_list"
    for mode in "${modes[@]}"; do
      v=()
      for i in $(seq "$repeat"); do
        rm -f "$WORK/d.bin"; sync
        case $mode in
          default) v+=("$(wall "$A" solve "$G" -o "$WORK/d.bin")") ;;
          -*) v+=("$(wall "$A" solve "$G" -o "$WORK/d.bin" $mode)") ;;
          *) v+=("$(wall env "$mode" "$A" solve "$G" -o "$WORK/d.bin")") ;;
        esac
      done
      echo "n=$n solve -o d.bin ($mode): median $(median "${v[@]}") s of [${v[*]}]" | tee -a "$table"
      local shown="apsp solve g$n.bin -o d.bin"
      case $mode in default) ;; -*) shown+=" $mode" ;; *) shown="$mode $shown" ;; esac
      row breakdown "whole run ($mode)${holder:+, context held}" "$n" median_seconds "$(median "${v[@]}")" s \
        "${AB_ENV_SHOWN:+$AB_ENV_SHOWN }$shown (n^2/16 arcs, median of $repeat, fresh target)"
    done
    rm -f "$WORK/d.bin"; sync
    APSP_CUDA_VERBOSE=1 APSP_TRACE=1 "$A" solve "$G" -o "$WORK/d.bin" --json >"$WORK/json.txt" \
      2>"$WORK/trace.txt"
    local ended=$EPOCHREALTIME done_at
    sed 's/^apsp: trace: */    /' "$WORK/trace.txt" | tee -a "$table"
    done_at=$(sed -n 's/.*command done.*(realtime \([0-9.]*\)).*/\1/p' "$WORK/trace.txt")
    [[ -n $done_at ]] && python3 -c "print(f'    exit: {$ended - $done_at:.3f} s from \"command done\" to the end of the process')" |
      tee -a "$table"
    python3 -c "import json; print('    stages', json.load(open('$WORK/json.txt'))['seconds'])" |
      tee -a "$table"
    rm -f "$WORK/d.bin" "$G"
  done
  [[ -n $holder ]] && kill "$holder" 2>/dev/null
  grep -E "median|exit:" "$table" >>"$SUMMARY"
}

suite stages suite_stages "apsp_cli" \
  "APSP_TRACE=1 timestamps and --json stages of n = 20000 (10 % density) without output, to a fresh and an existing target, and with --map-output (was gpu_profile_wholerun.sh)"
suite_stages() {
  local A G="$WORK/g20000_dense10.bin" label
  A=$(program apsp)
  df -h "$WORK" | tail -1
  [[ -f $G ]] || python3 -c "
import sys; sys.path.insert(0, 'bench/cuda'); import wholerun; wholerun.make_graph('$G', 20000, 20000)"
  one() { # label, args...
    label=$1
    shift
    sync
    local s=$EPOCHREALTIME
    APSP_TRACE=1 "$A" "$@" --json 2>"$WORK/trace_$label.txt" >"$WORK/json_$label.txt"
    local rc=$? t
    t=$(since "$s")
    note "$t s wall (rc $rc): $label"
    sed 's/^apsp: trace: */    /' "$WORK/trace_$label.txt" >>"$SUMMARY"
    python3 -c "import json; print('    stages', json.load(open('$WORK/json_$label.txt'))['seconds'])" |
      tee -a "$SUMMARY"
    local shown="$*"
    row stages "$label" 20000 wall_seconds "$t" s "APSP_TRACE=1 ${shown//$WORK\//} --json"
  }
  "$A" info "$G" >/dev/null
  one no_output solve "$G"
  rm -f "$WORK/d.bin"; one output_fresh solve "$G" -o "$WORK/d.bin"
  one output_overwrite solve "$G" -o "$WORK/d.bin"
  rm -f "$WORK/d.bin"; one mapped_fresh solve "$G" -o "$WORK/d.bin" --map-output
  one mapped_overwrite solve "$G" -o "$WORK/d.bin" --map-output
  rm -f "$WORK/d.bin" "$G"
}

suite context suite_context "apsp_context_probe apsp_cli" \
  "a CUDA context's start and end step by step (bench/cuda/context_probe.py, REPEAT 7, ENDS keep,release,reset,runtime, MIB 64) under SETTINGS (CUDA_DEVICE_MAX_CONNECTIONS=1;...=2), then the breakdown suite at 5000 10000 with MODES=SETTINGS (WHOLE=0: not) (was gpu_context.sh)"
suite_context() {
  local settings=${SETTINGS:-CUDA_DEVICE_MAX_CONNECTIONS=1;CUDA_DEVICE_MAX_CONNECTIONS=2}
  python3 bench/cuda/context_probe.py "$(program apsp_context_probe)" --repeat "${REPEAT:-7}" \
    --settings "default;$settings" --ends "${ENDS:-keep,release,reset,runtime}" --mib "${MIB:-64}" |
    tee "$WORK/context_probe.txt" | tee -a "$SUMMARY"
  [[ ${WHOLE:-1} == 1 ]] && MODES="$settings" BREAKDOWN_SIZES=${BREAKDOWN_SIZES:-5000 10000} suite_breakdown
  return 0
}

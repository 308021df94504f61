# A/B: the same suites measured for two or more variants in one call, alternating ROUNDS times,
# so that a change and its baseline meet the same machine at the same minutes. The variants are
# one of (checked in this order):
#   BASE_SRC=DIR     another source tree (e.g. the commit before a redesign, unpacked), built
#                    with this tree's .deps into /tmp/apsp-ab/base; rows of it carry BASE_COMMIT
#   PATCH=FILE       this tree with FILE reverted (patch -R -p1), built the same way
#   VARIANTS="name:-DDEF=1,-DX name2:"  one build per name with those CUDA compile definitions
#   AB_VAR=NAME AB_VALUES="1 0"  one build, NAME set to each value ("default": unset)
#   BASE_ENV="A=1 B=2"  one build, the base run with those settings
# and the measured suites are AB_SUITES (default kernels), each with its own settings
# (KERNEL_SIZES, KERNEL_MODES, SPLIT_RUNS, CPU_SIZES, ...).

# The targets the measured suites need.
ab_targets() {
  local s
  for s in ${AB_SUITES:-kernels}; do
    [[ ${SUITE_TARGETS[$s]} == all ]] || echo "${SUITE_TARGETS[$s]}"
  done
}

suite ab suite_ab "" \
  "AB_SUITES (kernels) for two builds (BASE_SRC=DIR, PATCH=FILE or VARIANTS=name:defs...) or environment values (AB_VAR=NAME AB_VALUES='1 0', BASE_ENV='A=1'), alternating ROUNDS (2) times (was gpu_ab.sh, gpu_ab_builds.sh, gpu_split_ab.sh, gpu_host_cpu_ab.sh, gpu_staging_size.sh, gpu_lookahead.sh)"
suite_ab() {
  local names=() v name defs targets dir=/tmp/apsp-ab
  declare -A vbuild venv vcommit
  read -ra targets <<<"$(ab_targets | tr '\n' ' ')"
  ((${#targets[@]})) || targets=(apsp_cli)
  mkdir -p "$dir"
  if [[ -n ${BASE_SRC:-} || -n ${PATCH:-} ]]; then
    local src=${BASE_SRC:-}
    if [[ -z $src ]]; then
      src=$dir/base-src
      rm -rf "$src" && mkdir -p "$src"
      tar --exclude='./build*' --exclude='./.git' --exclude='./.deps' --exclude='./.gpu_data' --exclude='./.ab' \
        -cf - . | tar -C "$src" -xf -
      local patch_file=$PATCH
      [[ $patch_file == /* ]] || patch_file=$ROOT/$PATCH
      (cd "$src" && patch -s -R -p1 <"$patch_file") ||
        { note "ab: PATCH $PATCH does not revert"; return 1; }
    fi
    build "$src" "$dir/base" "${targets[@]}" || { note "ab: the baseline build failed"; return 1; }
    names=(base new)
    vbuild=([base]=$dir/base [new]=$BUILD)
    vcommit=([base]=${BASE_COMMIT:-${PATCH:+$APSP_COMMIT-without-$(basename "$PATCH")}} [new]=$APSP_COMMIT)
    [[ -n ${vcommit[base]} ]] || vcommit[base]=base
    venv=([base]="" [new]="")
  elif [[ -n ${VARIANTS:-} ]]; then
    for v in $VARIANTS; do
      name=${v%%:*}
      defs=${v#*:}
      BUILD_EXTRA=("-DCMAKE_CUDA_FLAGS=${defs//,/ }")
      build . "$dir/$name" "${targets[@]}" || { note "ab: build $name failed"; return 1; }
      BUILD_EXTRA=()
      names+=("$name")
      vbuild[$name]=$dir/$name
      vcommit[$name]=$APSP_COMMIT+$name
      venv[$name]=""
    done
  elif [[ -n ${AB_VAR:-} ]]; then
    for v in ${AB_VALUES:-1 0}; do
      name="$AB_VAR=$v"
      [[ $v == default ]] && name="$AB_VAR unset"
      names+=("$name")
      vbuild[$name]=$BUILD
      vcommit[$name]=$APSP_COMMIT
      [[ $v == default ]] && venv[$name]="" || venv[$name]="$AB_VAR=$v"
    done
  elif [[ -n ${BASE_ENV:-} ]]; then
    names=(base new)
    vbuild=([base]=$BUILD [new]=$BUILD)
    vcommit=([base]=$APSP_COMMIT [new]=$APSP_COMMIT)
    venv=([base]="$BASE_ENV" [new]="")
  else
    note "ab: set BASE_SRC, PATCH, VARIANTS, AB_VAR or BASE_ENV"
    return 2
  fi
  note "ab: variants ${names[*]}; suites ${AB_SUITES:-kernels}; rounds ${ROUNDS:-2}"
  local round s
  for round in $(seq "${ROUNDS:-2}"); do
    for name in "${names[@]}"; do
      for s in ${AB_SUITES:-kernels}; do
        (
          [[ -n ${AB_VAR:-} && -z ${venv[$name]} ]] && unset "$AB_VAR"
          for a in ${venv[$name]}; do export "${a?}"; done
          export BUILD=${vbuild[$name]} VARIANT=$name VARIANT_COMMIT=${vcommit[$name]} \
            AB_ROUND=$round AB_ENV_SHOWN=${venv[$name]}
          export VARIANT_TAG
          VARIANT_TAG=$(echo "${name}_$round" | tr -c 'A-Za-z0-9_.-' '_')
          note "-- ab round $round: $name: $s"
          "${SUITE_FN[$s]}"
        )
      done
    done
  done
}

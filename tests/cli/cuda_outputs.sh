#!/usr/bin/env bash
# GPU end-to-end check of `apsp solve -o`: the cuda back end's default in-place output (the
# solve inside the memory-mapped output file; `--backend cuda` named, as auto leaves a graph
# this small to the cpu), --no-map-output and the cpu back end must write
# byte-identical .npy and course-binary files for the bundled rome99 graph (3353 vertices), and
# the in-place and in-RAM cuda path matrices too.
# Exit 77 (skipped) without a usable CUDA device.
#   cuda_outputs.sh APSP_BINARY GRAPH WORKDIR
set -euo pipefail
apsp=$1 graph=$2 work=$3
if ! "$apsp" solve "$graph" --backend cuda --quiet 2>/dev/null; then
  echo "no usable CUDA device: skipped"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
for ext in npy bin; do
  "$apsp" solve "$graph" -o "$work/auto.$ext" --backend cuda --json >"$work/auto_$ext.json"
  grep -q '"backend": *"cuda"' "$work/auto_$ext.json" || { echo "not solved on cuda"; cat "$work/auto_$ext.json"; exit 1; }
  "$apsp" solve "$graph" -o "$work/ram.$ext" --no-map-output --backend cuda --quiet
  "$apsp" solve "$graph" -o "$work/cpu.$ext" --backend cpu --quiet
  cmp "$work/auto.$ext" "$work/ram.$ext"
  cmp "$work/auto.$ext" "$work/cpu.$ext"
  ! compgen -G "$work/*apsp-partial*" >/dev/null || { echo "partial file left behind"; exit 1; }
  echo "$ext: in-place cuda, in-RAM cuda and cpu outputs identical"
done
# With the path matrix: in place, both files are mapped; the same bytes as from RAM.
"$apsp" solve "$graph" -o "$work/auto_p.npy" --paths "$work/auto_via.npy" --backend cuda --quiet
"$apsp" solve "$graph" -o "$work/ram_p.npy" --paths "$work/ram_via.npy" --no-map-output \
  --backend cuda --quiet
cmp "$work/auto_p.npy" "$work/ram_p.npy"
cmp "$work/auto_via.npy" "$work/ram_via.npy"
! compgen -G "$work/*apsp-partial*" >/dev/null || { echo "partial path file left behind"; exit 1; }
echo "paths: in-place and in-RAM cuda distance and path files identical"
rm -rf "$work"

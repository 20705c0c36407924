#!/usr/bin/env bash
# common/plots.sh - every chapter's throughput plot, the suite scatters and the gallery plot,
# from a fresh run on this machine's GPU (matplotlib needed to draw: see common/plot.py).
#
#   cmake --workflow --preset plots          configure, build, then this script
#   common/plots.sh                          run the programs (--csv) into build/plots/, draw
#   PLOTS_DRAW_ONLY=1 common/plots.sh        draw again from the CSVs already in build/plots/
#
# Draws every chapter's throughput.png, the full-array chapters' suite.png (the 2,022-size
# suite as a scatter) and gallery.png (the best variant of each chapter against n) into
# build/plots/png/, next to the CSVs. The committed images (chapters/<NN_idea>/*.png,
# docs/gallery.png) are only replaced when asked: PLOTS_INTO_SOURCE=1 common/plots.sh.
# The runs are timing runs (--no-check): the tests and the chapters' tables are where results
# are validated.
# Environment: BUILD_DIR (default build), PLOTS_INTO_SOURCE (1: overwrite the committed images).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
data=$build/plots
mkdir -p "$data"
# Where an image goes: build/plots/png/ unless PLOTS_INTO_SOURCE=1 asks for the committed one.
into_source=${PLOTS_INTO_SOURCE:-0}
image() {  # image <folder under the source tree> <file name>
  if [[ $into_source == 1 ]]; then echo "$1/$2"; else mkdir -p "$data/png/$1" && echo "$data/png/$1/$2"; fi
}
if [[ $into_source == 1 ]]; then
  echo "PLOTS_INTO_SOURCE=1: the committed images under chapters/ and docs/ are OVERWRITTEN with this GPU's plots"
else
  echo "plots go to $data/png/ (the committed images are left alone; PLOTS_INTO_SOURCE=1 replaces them)"
fi
sizes="2^12,2^14,2^16,2^18,2^20,2^22,2^24,2^26,2^28"

# The lines of each chapter's plot (substrings of variant names; the copy is always drawn).
declare -A lines=(
  [00_speed_of_light]="copy/one_element_per_thread,copy/vectorised_16B,copy/cudaMemcpy,cub/inclusive_scan"
  [01_reduction]="interleaved_divergent,convergent,add_during_load,warp_shuffle,fixed_grid_vectorised"
  [02_global_memory_scan]="hillis_steele/inclusive,blelloch/inclusive,blelloch_remapped/inclusive"
  [03_hillis_steele]="two_barrier/inclusive,double_buffer/inclusive,reverse_accumulation/inclusive,warp_shuffle/inclusive"
  [04_blelloch]="classic/inclusive,padded/inclusive,level_by_level/inclusive"
  [05_block_scan]="scalar_loads/inclusive,vectorised/inclusive,transposed/inclusive"
  [06_scan_then_propagate]="scan_then_propagate/inclusive,scan_then_propagate/256x64B"
  [07_reduce_then_scan]="reduce_then_scan/inclusive,reduce_then_scan/C=1/SM,l2_streaming/16MiB/inclusive"
  [08_chained_scan]="chained/fenced,chained/release_acquire,chained/packed,chained/packed/256x32B"
  [09_decoupled_lookback]="v1/,v2/,v3/,v4/tuned/inclusive,baseline/cub/inclusive"
  [10_stream_compaction]="map_scan_scatter/ch09,fused/ballot_lookback,baseline/cub/select_if,baseline/thrust/copy_if"
  [12_warp_specialized_scan]="1_bulk_loads,2_lookback_warp,3_device_geometry,4_sector_status,5_prefetch_next_tile,6_one_block_per_SM/inclusive,baseline/ch09_v4/inclusive,baseline/cub/inclusive"
)
# Flags a chapter's runs need besides the sizes (chapter 10: half of the elements kept).
declare -A extra_flags=(
  [10_stream_compaction]="--keep 0.5"
)
# The gallery plot shows the scans: chapter 10 compacts (its "x copy" is below 1 by design).
gallery_chapters="00_speed_of_light 01_reduction 02_global_memory_scan 03_hillis_steele 04_blelloch 05_block_scan
  06_scan_then_propagate 07_reduce_then_scan 08_chained_scan 09_decoupled_lookback 12_warp_specialized_scan"
# The full-array chapters' suite scatters: the variants drawn.
declare -A suite_lines=(
  [02_global_memory_scan]="blelloch_remapped/inclusive"
  [06_scan_then_propagate]="scan_then_propagate/inclusive"
  [07_reduce_then_scan]="reduce_then_scan/inclusive"
  [08_chained_scan]="chained/packed"
  [09_decoupled_lookback]="v3/,v4/tuned/inclusive,baseline/cub/inclusive"
)
chapters=$(printf '%s\n' "${!lines[@]}" | sort)

if [[ ${PLOTS_DRAW_ONLY:-0} != 1 ]]; then
  for chapter in $chapters; do
    echo "== $chapter: sizes $sizes"
    # shellcheck disable=SC2086
    "$build/bin/$chapter" --csv --no-check --iters 20 --warmup 3 --n "$sizes" --variant "${lines[$chapter]}" \
      ${extra_flags[$chapter]:-} >"$data/$chapter.csv"
  done
  for chapter in $(printf '%s\n' "${!suite_lines[@]}" | sort); do
    echo "== $chapter: the 2,022-size suite"
    "$build/bin/$chapter" --csv --no-check --iters 5 --warmup 1 --n suite --variant "${suite_lines[$chapter]}" >"$data/$chapter.suite.csv"
  done
fi

for chapter in $chapters; do
  python3 common/plot.py sweep "$data/$chapter.csv" -o "$(image "chapters/$chapter" throughput.png)" --title "$chapter: throughput against n"
done
for chapter in $(printf '%s\n' "${!suite_lines[@]}" | sort); do
  python3 common/plot.py suite "$data/$chapter.suite.csv" -o "$(image "chapters/$chapter" suite.png)" --title "$chapter: the 2,022-size suite"
done
# Chapter 11 (one array over several GPUs): where it is built and two or more GPUs are visible.
if [[ ${PLOTS_DRAW_ONLY:-0} != 1 && -x $build/bin/11_multi_gpu_scan ]] && (($(nvidia-smi -L 2>/dev/null | wc -l) >= 2)); then
  echo "== 11_multi_gpu_scan: every GPU count"
  "$build/bin/11_multi_gpu_scan" --csv --no-check --iters 10 --warmup 2 --n 2^28,2^30,2^31,2^32 >"$data/11_multi_gpu_scan.csv"
fi
if [[ -s $data/11_multi_gpu_scan.csv ]]; then
  python3 common/plot.py scaling "$data/11_multi_gpu_scan.csv" -o "$(image chapters/11_multi_gpu_scan scaling.png)" \
    --title "11_multi_gpu_scan: parallel efficiency against n (int32 sum)"
fi
python3 common/plot.py gallery $(for c in $gallery_chapters; do echo "$data/$c.csv"; done) -o "$(image docs gallery.png)" \
  --title "Scan Gallery: the best variant of each chapter against a copy"

#!/usr/bin/env bash
# common/profile.sh - Nsight Compute on one chapter, with the metrics a lecture shows.
#
#   common/profile.sh 04_blelloch [program flags...]      e.g. --variant padded --n 2^24
#
# Runs the chapter with --no-timing, so that every selected variant launches exactly once (the
# launch that is validated): every kernel in the report is one launch of one variant, and the
# table prints "-" where a time would be (a time measured under the profiler means nothing:
# it replays each kernel many times to read its counters). It writes
#   profiles/<chapter>.ncu-rep   the full report: open it in ncu-ui for the source view
#   profiles/<chapter>.txt       a short text summary, one block per kernel:
#                                duration; memory throughput as % of peak, and of which unit
#                                (L1, L2, DRAM) is the busiest;
#                                DRAM bytes read/written; shared-memory bank conflicts;
#                                L2 hit rate; achieved occupancy and what limits the
#                                blocks per SM; the top warp stall reasons
# Environment: BUILD_DIR (default build), PROFILE_DIR (default profiles), NCU (default ncu),
# NCU_ARGS (extra ncu flags, e.g. "--launch-count 40" for chapters with many launches).
set -euo pipefail

if [[ $# -lt 1 || $1 == -h || $1 == --help ]]; then
  sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
chapter=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
build_dir=${BUILD_DIR:-build}
profile_dir=${PROFILE_DIR:-profiles}
ncu=${NCU:-ncu}
program="$build_dir/bin/$chapter"
[[ -x $program ]] || { echo "error: $program not found: build it first (cmake --build --preset default --target $chapter)" >&2; exit 2; }
command -v "$ncu" >/dev/null || { echo "error: $ncu (Nsight Compute) not found on PATH" >&2; exit 3; }
mkdir -p "$profile_dir"

# The lecture set. Sections give ncu-ui its pages (source counters included); the metrics
# are what the text summary prints.
metrics=(
  gpu__time_duration.sum
  gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed
  dram__throughput.avg.pct_of_peak_sustained_elapsed
  l1tex__throughput.avg.pct_of_peak_sustained_active
  lts__throughput.avg.pct_of_peak_sustained_elapsed
  dram__bytes_read.sum
  dram__bytes_write.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
  sm__warps_active.avg.pct_of_peak_sustained_active
  sm__maximum_warps_per_active_cycle_pct
  lts__t_sector_hit_rate.pct
  launch__registers_per_thread
  launch__occupancy_limit_blocks
  launch__occupancy_limit_registers
  launch__occupancy_limit_shared_mem
  launch__occupancy_limit_warps
)
stalls=(long_scoreboard barrier membar short_scoreboard mio_throttle lg_throttle math_pipe_throttle wait not_selected
        selected dispatch_stall drain branch_resolving no_instruction sleeping tex_throttle imc_miss)
for s in "${stalls[@]}"; do metrics+=("smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio"); done
metric_list=$(IFS=,; echo "${metrics[*]}")

report="$profile_dir/$chapter"
# --clock-control none: measure the GPU as it runs for everyone else (never lock clocks)
# shellcheck disable=SC2086
"$ncu" --clock-control none --force-overwrite --export "$report" --import-source yes ${NCU_ARGS:-} \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy \
  --section LaunchStats --section SourceCounters --metrics "$metric_list" \
  "$program" --no-timing "$@"

"$ncu" --import "$report.ncu-rep" --page raw --csv --metrics "$metric_list" > "$report.csv"
python3 "$here/ncu_summary.py" "$report.csv" > "$report.txt"
cat "$report.txt"
echo "report: $report.ncu-rep (open in ncu-ui), summary: $report.txt"

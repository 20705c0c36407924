#!/usr/bin/env bash
# common/sanitize.sh - compute-sanitizer's four tools on one chapter, at a small n.
#
#   common/sanitize.sh 09_decoupled_lookback [program flags...]
#
# memcheck   out-of-bounds and misaligned accesses, leaks, errors from CUDA calls
# racecheck  shared-memory hazards: a missing __syncthreads() between a write and a read
# synccheck  barriers that not every thread of the block reaches, bad warp masks
# initcheck  reads of device memory nothing wrote
# Each tool runs the chapter (every variant, validated) at --n 1000,2^16+1 unless flags say
# otherwise; logs go to sanitize/<chapter>.<tool>.log. Exits 1 if any tool found an error.
# Environment: BUILD_DIR (default build), SANITIZE_DIR (default sanitize).
set -uo pipefail

if [[ $# -lt 1 || $1 == -h || $1 == --help ]]; then
  sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
chapter=$1
shift
build_dir=${BUILD_DIR:-build}
log_dir=${SANITIZE_DIR:-sanitize}
program="$build_dir/bin/$chapter"
[[ -x $program ]] || { echo "error: $program not found: build it first (cmake --build --preset default --target $chapter)" >&2; exit 2; }
command -v compute-sanitizer >/dev/null || { echo "error: compute-sanitizer not found on PATH" >&2; exit 3; }
mkdir -p "$log_dir"
args=("$@")
[[ " ${args[*]} " == *" --n "* ]] || args+=(--n 1000,2^16+1)

failed=0
for tool in memcheck racecheck synccheck initcheck; do
  log="$log_dir/$chapter.$tool.log"
  extra=()
  [[ $tool == memcheck ]] && extra=(--leak-check full)
  [[ $tool == racecheck ]] && extra=(--racecheck-report hazard)
  compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 99 "$program" --warmup 1 --iters 2 "${args[@]}" >"$log" 2>&1
  status=$?
  summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -n 1)
  printf '%-10s exit %-3s %s\n' "$tool" "$status" "${summary:-(no summary line; see $log)}"
  if [[ $status -ne 0 ]]; then
    failed=1
    grep -m 5 -E "^========= (Invalid|Error|Race|Barrier|Uninitialized|.*hazard)" "$log" | sed 's/^/    /'
  fi
done
exit $failed

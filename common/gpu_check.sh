#!/usr/bin/env bash
# common/gpu_check.sh - one batched session on a GPU machine: the README's two quick-start
# commands, every test, each chapter's table, and the profiler and sanitizer scripts.
#
#   CHAPTERS="00_speed_of_light 03_hillis_steele" PROFILE="00_speed_of_light" \
#   SANITIZE="00_speed_of_light" common/gpu_check.sh
#
# Environment:
#   CHAPTERS     chapter programs to run with default flags (default: every chapter)
#   CHAPTER_ARGS extra flags for them (e.g. "--n 2^26,2^28")
#   PROFILE      chapters to run common/profile.sh on (default: none)
#   PROFILE_ARGS flags for the profiled runs (default: --n 2^24)
#   SANITIZE     chapters to run common/sanitize.sh on (default: none)
#   SKIP_TESTS=1 skip the test workflow; SKIP_TOUR=1 skip the tour
#   LOG_DIR      where the logs go (default: gpu_logs); with $OUT set (the device tool),
#                they are also packed into $OUT/gpu_logs.tgz
# The last lines printed are a short summary: the ctest result line and each table's rows.
set -uo pipefail
cd "$(dirname "$0")/.."
log_dir=${LOG_DIR:-gpu_logs}
mkdir -p "$log_dir"
[[ -d .deps/doctest/usr ]] && export CMAKE_PREFIX_PATH="$PWD/.deps/doctest/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
export PATH=/usr/local/cuda/bin:$PATH

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv,noheader | tee "$log_dir/gpu.txt"

if [[ ${SKIP_TESTS:-0} != 1 ]]; then
  echo "== cmake --workflow --preset test"
  cmake --workflow --preset test >"$log_dir/test.log" 2>&1
  echo "test workflow exit $?"
else
  cmake --preset default >"$log_dir/configure.log" 2>&1 && cmake --build --preset default >"$log_dir/build.log" 2>&1
  echo "build exit $?"
fi

chapters=${CHAPTERS:-$(ls -d chapters/[0-9][0-9]_* | xargs -n1 basename)}
for chapter in $chapters; do
  echo "== $chapter"
  # shellcheck disable=SC2086
  build/bin/$chapter ${CHAPTER_ARGS:-} >"$log_dir/$chapter.txt" 2>&1
  echo "$chapter exit $?"
done

if [[ ${SKIP_TOUR:-0} != 1 ]]; then
  echo "== cmake --workflow --preset tour"
  start=$(date +%s)
  cmake --workflow --preset tour >"$log_dir/tour.txt" 2>&1
  echo "tour workflow exit $? in $(( $(date +%s) - start )) s"
fi

for chapter in ${PROFILE:-}; do
  echo "== profile $chapter"
  # shellcheck disable=SC2086
  PROFILE_DIR="$log_dir/profiles" common/profile.sh "$chapter" ${PROFILE_ARGS:---n 2^24} >"$log_dir/$chapter.profile.log" 2>&1
  echo "profile $chapter exit $?"
done
for chapter in ${SANITIZE:-}; do
  echo "== sanitize $chapter"
  SANITIZE_DIR="$log_dir/sanitize" common/sanitize.sh "$chapter" >"$log_dir/$chapter.sanitize.txt" 2>&1
  echo "sanitize $chapter exit $?"
done

echo
echo "================ summary ================"
[[ -f $log_dir/test.log ]] && grep -E "tests passed|tests failed|Failed|\*\*\*" "$log_dir/test.log" | tail -n 15
for chapter in $chapters; do
  echo "-- $chapter"
  grep -E "^(variant|baseline|copy|cub|cpu|[a-z_]+/)|FAIL|error" "$log_dir/$chapter.txt" | cut -c1-130
done
for chapter in ${SANITIZE:-}; do echo "-- sanitize $chapter"; cat "$log_dir/$chapter.sanitize.txt"; done

[[ -n ${OUT:-} ]] && tar czf "$OUT/gpu_logs.tgz" "$log_dir"

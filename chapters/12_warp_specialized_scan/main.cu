// Chapter 12 - the warp-specialized single-pass scan: the ladder of steps, chapter 09's v4 and
// CUB, against a copy.
//
// Run: ./build/bin/12_warp_specialized_scan --n 2^22,2^26,2^28,2^30
//      ./build/bin/12_warp_specialized_scan --n suite --no-timing --repeat 5     (10,110 scans per variant)
//      ./build/bin/12_warp_specialized_scan --n 2^22,2^26,2^28 --variant 8_prefetch_next_tile/incl,9_sector_status/incl --trace  (where the time goes)
//      common/sanitize.sh 12_warp_specialized_scan --variant ^9_ --grid 3 --n 1000,2^18+5     (every stage reused)
// On a GPU without bulk copies (before sm_90), steps 2-11 run chapter 09's v4 instead, and say so.
#include "12_warp_specialized_scan/trace.cuh"
#include "12_warp_specialized_scan/variants.cuh"
#include "12_warp_specialized_scan/warp_specialized.cuh"
#include "common/program.cuh"

#include <cstdio>

int main(int argc, char** argv) {
  bool trace = false;
  sg::Options defaults;
  defaults.sizes = {std::size_t{1} << 16, std::size_t{1} << 22, std::size_t{1} << 26};
  defaults.extra_flags = {
      {"--trace", "", "after the table, the copy through the stages by ticket, steps 5-10 and the traced diagnostic and sweep rows (those --variant selects) again with their waits timed: look-back round trips, load latency, waits, a timeline of the launch, the aggregates' timing (a look-back per tile), and (tiles by ticket) the tiles per SM",
       [&](const std::string&) { trace = true; }},
      {"--grid", "N", "at most N blocks per launch (default: as many as the GPU holds at once): with a few blocks a small array goes round every block's ring, for compute-sanitizer",
       [&](const std::string& value) { ch12::grid_limit() = static_cast<unsigned>(sg::detail::parse_count(value, "--grid", 1)); }},
  };
  return sg::program_main(argc, argv, std::string(ch12::Chapter::id) + ": " + ch12::Chapter::title, defaults,
                          [&](const sg::Options& options, const sg::DeviceInfo& device) {
                            if (!ch12::runs_bulk_copy_kernel())
                              std::printf("%snote: %s (sm_%d%d) has no bulk copies, or this build has no sm_90 code: steps 2-11 run "
                                          "chapter 09's v4 instead (build with -DCMAKE_CUDA_ARCHITECTURES=90 for an H100 or H200)\n",
                                          options.csv ? "# " : "", device.name.c_str(), device.major, device.minor);
                            const bool ok = sg::run_chapter<ch12::Chapter>(options, device);
                            if (!ok || !trace || options.csv || options.suite) return ok;
                            return ch12::print_traces(options, device);
                          });
}

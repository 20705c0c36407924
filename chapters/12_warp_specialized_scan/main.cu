// Chapter 12 - the warp-specialized single-pass scan: the ladder, chapter 09's v4 and CUB,
// against a copy.
//
// Run: ./build/bin/12_warp_specialized_scan --n 2^22,2^26,2^28
//      ./build/bin/12_warp_specialized_scan --n suite --no-timing --repeat 5 --variant ^6_   (a stress run)
//      common/sanitize.sh 12_warp_specialized_scan --variant ^5_,^6_ --grid 3 --n 1000,2^18+5
// On a GPU without bulk copies (before sm_90) every step runs chapter 09's v4, and says so.
#include "12_warp_specialized_scan/pipeline.cuh"  // grid_limit
#include "12_warp_specialized_scan/variants.cuh"
#include "common/program.cuh"

#include <cstdio>

int main(int argc, char** argv) {
  sg::Options defaults;
  defaults.sizes = {std::size_t{1} << 22, std::size_t{1} << 26, std::size_t{1} << 28};
  defaults.extra_flags = {
      {"--grid", "N", "at most N blocks per launch (default: as many as the GPU holds): with a few blocks a small array goes round every ring, for compute-sanitizer",
       [](const std::string& value) { ch12::grid_limit() = static_cast<unsigned>(sg::detail::parse_count(value, "--grid", 1)); }},
  };
  return sg::program_main(argc, argv, std::string(ch12::Chapter::id) + ": " + ch12::Chapter::title, sg::chapter_options<ch12::Chapter>(defaults),
                          [](const sg::Options& options, const sg::DeviceInfo& device) {
                            if (!ch12::runs_bulk_copy_kernel())
                              std::printf("%snote: %s (sm_%d%d) has no bulk copies, or this build has no sm_90 code: every step runs "
                                          "chapter 09's v4 instead (build with -DCMAKE_CUDA_ARCHITECTURES=90 for an H100 or H200)\n",
                                          options.csv ? "# " : "", device.name.c_str(), device.major, device.minor);
                            return sg::run_chapter<ch12::Chapter>(options, device);
                          });
}

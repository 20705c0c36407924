// Chapter 09 - single-pass scan with decoupled look-back: the four versions, the v4 sweep,
// v4 without its look-back (what the look-back costs), and CUB, against a copy.
//
// Run: ./build/bin/09_decoupled_lookback --n 2^16,2^20,2^26
//      ./build/bin/09_decoupled_lookback --variant v4/tuned,cub --n 2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^24,2^26,2^28,2^30
//      ./build/bin/09_decoupled_lookback --n suite --no-timing --repeat 5     (10,110 scans per variant)
#include "09_decoupled_lookback/variants.cuh"
#include "common/program.cuh"

int main(int argc, char** argv) {
  sg::Options defaults;
  defaults.sizes = {std::size_t{1} << 16, std::size_t{1} << 20, std::size_t{1} << 26};
  return sg::chapter_main<ch09::Chapter>(argc, argv, defaults);
}

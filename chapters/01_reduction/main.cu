// Chapter 01 - reduction. Prints every variant against a device-to-device copy, and after
// each size the launches each kind of variant makes (the block-per-tile variants repeat
// their kernel on the partials; the fixed grid always makes two launches).
//
// Run: ./build/bin/01_reduction --n 2^26
//      ./build/bin/01_reduction --variant convergent,warp_shuffle --type float --op max --n 2^20,2^28
#include "01_reduction/fixed_grid.cuh"
#include "01_reduction/reduction.cuh"
#include "01_reduction/variants.cuh"
#include "common/program.cuh"

#include <cstdio>
#include <string>
#include <type_traits>

namespace {

// "131072 -> 256 -> 1": the grid of each pass of a block-per-tile reduction.
std::string tree_grids(std::size_t n) {
  std::string text;
  std::size_t count = n;
  for (int pass = 0; pass < ch01::block_passes(n, ch01::kTreeElementsPerBlock); ++pass) {
    const std::size_t blocks = count == 0 ? 1 : (count + ch01::kTreeElementsPerBlock - 1) / ch01::kTreeElementsPerBlock;
    text += (pass > 0 ? " -> " : "") + std::to_string(blocks);
    count = blocks;
  }
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  using Chapter = ch01::Chapter;
  return sg::program_main(argc, argv, std::string(Chapter::id) + ": " + Chapter::title, sg::chapter_options<Chapter>(),
                          [](const sg::Options& options, const sg::DeviceInfo& device) {
    auto launch_plan = [&](auto& bench) {
      if (options.csv) return;
      using Bench = std::decay_t<decltype(bench)>;
      using T = typename Bench::value_type;
      using Op = typename Bench::op_type;
      const std::size_t n = bench.n();
      const unsigned grid = ch01::fixed_grid_blocks<T, Op>(n);
      std::printf("launches at n = %zu: block-per-tile variants %d (blocks per pass: %s); fixed_grid_vectorised %d (%u block%s%s)\n",
                  n, ch01::block_passes(n, ch01::kTreeElementsPerBlock), tree_grids(n).c_str(), grid > 1 ? 2 : 1, grid,
                  grid > 1 ? "s" : "", grid > 1 ? " -> 1" : "");
    };
    return sg::run_chapter<Chapter>(options, device, launch_plan);
  });
}

// Chapter 07 - reduce-then-scan. After each size, the grid each variant uses: C, the stripe
// each block owns, and how the leftover tiles are shared out.
//
// Run: ./build/bin/07_reduce_then_scan --n 2^26
//      ./build/bin/07_reduce_then_scan --n suite --no-timing     (the 2,022-size suite)
#include "07_reduce_then_scan/reduce_then_scan.cuh"
#include "07_reduce_then_scan/variants.cuh"
#include "common/program.cuh"

#include <cstdio>
#include <string>
#include <type_traits>

namespace {

template <typename T, typename Op, int kBlocksPerSM>
void print_grid(const char* name, std::size_t n, const sg::DeviceInfo& device) {
  const unsigned blocks = ch07::grid_size<T, Op, kBlocksPerSM>(n);
  const std::size_t tile = ch07::kTileItems<T>;
  const std::size_t tiles = (n + tile - 1) / tile;
  std::printf("  %-24s C = %5u (%5.2f per SM): %zu tiles of %zu, %zu per block, the first %zu blocks one more\n", name, blocks,
              static_cast<double>(blocks) / device.sm_count, tiles, tile, tiles / blocks, tiles % blocks);
}

}  // namespace

int main(int argc, char** argv) {
  using Chapter = ch07::Chapter;
  return sg::program_main(argc, argv, std::string(Chapter::id) + ": " + Chapter::title, sg::chapter_options<Chapter>(),
                          [](const sg::Options& options, const sg::DeviceInfo& device) {
    auto print_grids = [&](auto& bench) {
      if (options.csv) return;
      using Bench = std::decay_t<decltype(bench)>;
      using T = typename Bench::value_type;
      using Op = typename Bench::op_type;
      std::printf("grids at n = %zu:\n", bench.n());
      print_grid<T, Op, ch07::kResident>("resident (default)", bench.n(), device);
      print_grid<T, Op, 1>("C=1/SM", bench.n(), device);
      print_grid<T, Op, 2>("C=2/SM", bench.n(), device);
      print_grid<T, Op, 4>("C=4/SM", bench.n(), device);
      print_grid<T, Op, 16>("C=16/SM", bench.n(), device);
      std::printf("  %-24s C = %5u per chunk; launches: %zu (8 MiB chunks), %zu (16 MiB chunks)\n", "l2_streaming",
                  ch07::l2_grid_size<T, Op>(), (bench.n() * sizeof(T) + (8u << 20) - 1) / (8u << 20) + 1,
                  (bench.n() * sizeof(T) + (16u << 20) - 1) / (16u << 20) + 1);
    };
    return sg::run_chapter<Chapter>(options, device, print_grids);
  });
}

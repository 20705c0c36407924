// Chapter 06 - scan-then-propagate. After each size, the hierarchy each tile size builds:
// the level sizes, and the launches they cost.
//
// Run: ./build/bin/06_scan_then_propagate --n 2^26
//      ./build/bin/06_scan_then_propagate --n suite --no-timing     (the 2,022-size suite)
#include "06_scan_then_propagate/scan_then_propagate.cuh"
#include "06_scan_then_propagate/variants.cuh"
#include "common/program.cuh"

#include <cstdio>
#include <string>
#include <type_traits>

int main(int argc, char** argv) {
  using Chapter = ch06::Chapter;
  return sg::program_main(argc, argv, std::string(Chapter::id) + ": " + Chapter::title, sg::chapter_options<Chapter>(),
                          [](const sg::Options& options, const sg::DeviceInfo& device) {
    auto print_levels = [&](auto& bench) {
      if (options.csv) return;
      using T = typename std::decay_t<decltype(bench)>::value_type;
      std::printf("levels at n = %zu:\n", bench.n());
      const std::size_t tiles[] = {ch06::kTileItems<T, 128, 32>, ch06::kTileItems<T, 256, 32>, ch06::kTileItems<T, 256, 64>};
      for (std::size_t tile : tiles) {
        const ch06::Levels levels = ch06::levels_for(bench.n(), tile);
        std::string sizes;
        for (int l = 0; l < levels.count; ++l) sizes += (l ? " -> " : "") + std::to_string(levels.size[l]);
        std::printf("  tile %5zu: %-40s %d level%s, %zu launches\n", tile, sizes.c_str(), levels.count, levels.count == 1 ? "" : "s",
                    ch06::launches_for(bench.n(), tile));
      }
    };
    return sg::run_chapter<Chapter>(options, device, print_levels);
  });
}

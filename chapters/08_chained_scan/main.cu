// Chapter 08 - the chained scan. After each size: the handoff latency each variant implies
// (time / tiles: the chain is the bottleneck). After the last size: the race and
// forward-progress demonstrations (demos.cuh).
//
// Run: ./build/bin/08_chained_scan --n 2^20,2^24
//      ./build/bin/08_chained_scan --n suite --no-timing      (the 2,022-size suite)
#include "08_chained_scan/chained_scan.cuh"
#include "08_chained_scan/demos.cuh"
#include "08_chained_scan/variants.cuh"
#include "common/program.cuh"

#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace {

// The tile each variant uses, from the geometry in its name (the default: 512 x 64 B).
template <typename T>
std::size_t tile_of(const std::string& name) {
  if (name.find("256x32B") != std::string::npos) return ch08::kTileItems<T, 256, 32>;
  if (name.find("256x64B") != std::string::npos) return ch08::kTileItems<T, 256, 64>;
  return ch08::kTileItems<T, ch08::kDefaultThreads, ch08::kDefaultBytesPerThread>;
}

}  // namespace

int main(int argc, char** argv) {
  using Chapter = ch08::Chapter;
  sg::Options defaults;
  defaults.sizes = {std::size_t{1} << 20, std::size_t{1} << 24, std::size_t{1} << 26};
  defaults.iters = 20;
  return sg::program_main(argc, argv, std::string(Chapter::id) + ": " + Chapter::title, sg::chapter_options<Chapter>(defaults),
                          [](const sg::Options& options, const sg::DeviceInfo& device) {
    auto print_handoffs = [&](auto& bench, const std::vector<sg::ReportRow>& rows) {
      if (options.csv || !options.timing) return;
      using T = typename std::decay_t<decltype(bench)>::value_type;
      std::printf("handoffs at n = %zu (time / tiles: each tile waits for the one before it)\n", bench.n());
      for (const sg::ReportRow& row : rows) {
        const std::size_t tile = tile_of<T>(row.variant);
        const std::size_t tiles = (bench.n() + tile - 1) / tile;
        std::printf("  %-32s tile %5zu  %8zu tiles  %8.1f ns per tile\n", row.variant.c_str(), tile, tiles,
                    row.median_ms * 1e6 / static_cast<double>(tiles));
      }
    };
    const bool valid = sg::run_chapter<Chapter>(options, device, print_handoffs);
    if (options.csv || options.suite || !options.timing) return valid;  // (no demos in a table for a plot, or under the profiler)

    std::printf("\nthe race: value and flag published with plain stores, no fence (RacyStatus), int32 sum, n = 2^24\n");
    const ch08::RaceDemo race = ch08::race_demo(std::size_t{1} << 24, 20, options.seed);
    std::printf("  %d of %d runs wrong (%llu wrong elements in all)%s\n", race.wrong_runs, race.runs, race.wrong_elements,
                race.wrong_runs == 0 ? ": the race did not show this time, which proves nothing" : "");
    std::printf("\nforward progress: tiles in reversed block order (an allowed, unlucky scheduler), watchdog 200 ms\n");
    const ch08::ProgressDemo progress = ch08::forward_progress_demo(200, options.seed);
    std::printf("  %zu tiles, %zu blocks fit on the GPU at once\n", progress.tiles, progress.resident);
    std::printf("  reversed block order: %s\n", progress.reversed.empty() ? "got through (this scheduler started them in order)"
                                                                          : progress.reversed.c_str());
    std::printf("  ticket order:         %s\n", progress.ticket_correct ? "every wait ended, output correct" : "FAILED");
    return valid && progress.ticket_correct;
  });
}

// Chapter 02 - global-memory scans. Prints every variant against a device-to-device copy
// and, after each size, a "floor" row per launch count: the time of that many launches of
// an empty one-block kernel, the part of a variant's time that no amount of bandwidth
// removes (it leaves out the per-block cost of the large grids; README).
//
// Run: ./build/bin/02_global_memory_scan                      (the default sweep below)
//      ./build/bin/02_global_memory_scan --n 2^26 --variant blelloch
#include "02_global_memory_scan/variants.cuh"
#include "common/program.cuh"

#include <cstdio>
#include <map>
#include <string>
#include <type_traits>

namespace {

__global__ void empty_kernel() {}

double no_bytes(std::size_t, std::size_t) { return 0.0; }

}  // namespace

int main(int argc, char** argv) {
  using Chapter = ch02::Chapter;
  // Small sizes are launch-bound, large ones byte-bound; 2^26 + 1 shows the padding.
  sg::Options defaults;
  defaults.sizes = {std::size_t{1} << 16, std::size_t{1} << 20, std::size_t{1} << 24, std::size_t{1} << 26,
                    (std::size_t{1} << 26) + 1};
  return sg::program_main(argc, argv, std::string(Chapter::id) + ": " + Chapter::title, sg::chapter_options<Chapter>(defaults),
                          [](const sg::Options& options, const sg::DeviceInfo& device) {
    auto launch_floor_rows = [&](auto& bench) {
      if (!options.timing) return;  // nothing to compare with (and no empty launches under the profiler)
      using Bench = std::decay_t<decltype(bench)>;
      using T = typename Bench::value_type;
      using Op = typename Bench::op_type;
      std::map<std::size_t, std::string> families;  // launch count -> the variants that make that many
      for (const auto& variant : Chapter::variants<T, Op>()) {
        if (!sg::variant_selected(options, variant.name)) continue;
        const std::size_t launches = ch02::launches_of(variant.name, bench.n());
        std::string family = variant.name.substr(0, variant.name.find('/'));
        if (family == "blelloch_remapped") family = "blelloch";  // same launches, other grids
        std::string& names = families[launches];
        if (launches > 0 && names.find(family) == std::string::npos) names += (names.empty() ? "" : ",") + family;
      }
      for (const auto& family : families) {
        const std::size_t launches = family.first;
        if (launches == 0) continue;
        const sg::Timing timing = sg::time_device(
            [&](int) {
              for (std::size_t k = 0; k < launches; ++k) {
                empty_kernel<<<1, 32>>>();  // the legacy default stream, as the variants are timed
                SG_CHECK_LAUNCH();
              }
            },
            options.warmup, options.iters, nullptr);
        const std::string label = "floor: " + std::to_string(launches) + " empty launches (" + family.second + ")";
        sg::print_row<T, Op>(bench.timed_row(label, timing, sg::Computes::Copy, no_bytes), options);
      }
    };
    const bool valid = sg::run_chapter<Chapter>(options, device, launch_floor_rows);
    if (!options.csv)
      std::printf("\nfloor rows: as many launches of an empty kernel as the named variants make (read only their time\n"
                  "and x copy): hillis_steele ceil(log2 n), blelloch and blelloch_remapped 2 log2(N) + 2,\n"
                  "N = n padded to a power of two.\n");
    return valid;
  });
}

// Chapter 10 - the variant list, in the order of the lesson:
//   cpu/loop, cpu/with_scan       the CPU versions (table.cuh times them on the host)
//   map_scan_scatter/ch09         three kernels: flags, chapter 09's scan, scatter
//   fused/ballot_lookback         one pass: ballots count, chapter 09's look-back places
//   baseline/cub/select_if        CUB, same run
//   baseline/thrust/copy_if       Thrust, same run (count copied back to the host)
//   fused/sweep/...               int32 only: one knob at a time around the fused pass
// The table runs the libraries' rows (baseline/...) after the chapter's own at each size, and
// neither library above 2^31 - 1 elements (baselines.cuh says why).
#include "10_stream_compaction/baselines.cuh"
#include "10_stream_compaction/fused.cuh"
#include "10_stream_compaction/map_scan_scatter.cuh"
#include "10_stream_compaction/table.cuh"
#include "10_stream_compaction/variants.cuh"

#include <cstdint>
#include <type_traits>

namespace ch10 {

template <typename T>
std::vector<Compactor<T>> Chapter::variants() {
  using ch09::Tuning;
  constexpr std::size_t tile = kFusedTileItems<T, CompactTuned>;
  std::vector<Compactor<T>> variants = {
      {"map_scan_scatter/ch09", map_scan_scatter<T>, model::map_scan_scatter, map_scan_scatter_scratch_bytes,
       ch09::kTunedTileItems<unsigned int, ch09::Tuned>},
      {"fused/ballot_lookback", fused_compact<T>, model::fused, nullptr, tile},
      {"baseline/cub/select_if", cub_compact<T>, model::fused, cub_select_scratch_bytes<T>, 0, kSelectIfMaxItems, select_if_skipped()},
      {"baseline/thrust/copy_if", thrust_compact<T>, model::fused, nullptr, 0, kSelectIfMaxItems, select_if_skipped("thrust::copy_if")},
  };
  if constexpr (std::is_same_v<T, std::int32_t>) {
    // fused/ballot_lookback is CompactTuned = Tuning<128, 192, 1245, 648, 4, true, 12> with
    // 16-byte loads; each row changes one thing
    using Tile96 = Tuning<128, 96, 1245, 648, 6, true, 12>;
    using Tile128 = Tuning<128, 128, 1245, 648, 5, true, 12>;
    using Tile256 = Tuning<256, 96, 1245, 648, 2, true, 12>;
    const std::vector<Compactor<T>> sweep = {
        {"fused/sweep/scalar_loads", fused_compact<T, CompactTuned, false>, model::fused, nullptr, tile},
        {"fused/sweep/tile=128x96B,6/SM", fused_compact<T, Tile96>, model::fused, nullptr, kFusedTileItems<T, Tile96>},
        {"fused/sweep/tile=128x128B,5/SM", fused_compact<T, Tile128>, model::fused, nullptr, kFusedTileItems<T, Tile128>},
        {"fused/sweep/tile=256x96B,2/SM", fused_compact<T, Tile256>, model::fused, nullptr, kFusedTileItems<T, Tile256>},
        {"fused/sweep/occupancy=unbounded", fused_compact<T, Tuning<128, 192, 1245, 648, 1, true, 12>>, model::fused, nullptr, tile},
        {"fused/sweep/sleeps=0,0", fused_compact<T, Tuning<128, 192, 0, 0, 4, true, 12>>, model::fused, nullptr, tile},
        {"fused/sweep/sleeps=600,300", fused_compact<T, Tuning<128, 192, 600, 300, 4, true, 12>>, model::fused, nullptr, tile},
        {"fused/sweep/sleeps=4000,1000", fused_compact<T, ch09::Tuned>, model::fused, nullptr, tile},
        {"fused/sweep/prefetch=none", fused_compact<T, Tuning<128, 192, 1245, 648, 4, false, 0>>, model::fused, nullptr, tile},
    };
    variants.insert(variants.end(), sweep.begin(), sweep.end());
  }
  return variants;
}

template std::vector<Compactor<std::int32_t>> Chapter::variants<std::int32_t>();
template std::vector<Compactor<std::int64_t>> Chapter::variants<std::int64_t>();
template std::vector<Compactor<float>> Chapter::variants<float>();

namespace {

template <typename T>
bool run_for(const sg::Options& options, const sg::DeviceInfo& device, const TableChoices& choices, const std::string& prefix) {
  std::vector<LabelledCompactor<T>> labelled;
  for (const Compactor<T>& v : Chapter::variants<T>()) labelled.push_back({prefix + v.name, v});
  return run_compaction_table(labelled, options, device, choices, prefix);
}

template <typename T>
std::vector<std::string> names_for(const std::string& prefix) {
  std::vector<std::string> names = {prefix + "cpu/loop", prefix + "cpu/with_scan"};
  for (const Compactor<T>& v : Chapter::variants<T>()) names.push_back(prefix + v.name);
  return names;
}

bool run_typed(const sg::Options& options, const sg::DeviceInfo& device, const TableChoices& choices, const std::string& prefix) {
  if (options.type == "int64") return run_for<std::int64_t>(options, device, choices, prefix);
  if (options.type == "float") return run_for<float>(options, device, choices, prefix);
  return run_for<std::int32_t>(options, device, choices, prefix);
}

void print_compaction_preamble(const sg::Options& options, const sg::DeviceInfo& device, const std::string& title) {
  const char* c = options.csv ? "# " : "";
  std::printf("%s%s\n%sdevice: %s\n", c, title.c_str(), c, sg::describe(device).c_str());
  if (options.timing)
    std::printf("%s%s | seed %llu (rerun with --seed %llu) | median and min of %d timed runs after %d warm-up runs (CPU rows: 3)\n", c,
                options.type.c_str(), static_cast<unsigned long long>(options.seed), static_cast<unsigned long long>(options.seed),
                options.iters, options.warmup);
  else
    std::printf("%s%s | seed %llu (rerun with --seed %llu) | validation only (--no-timing)\n", c, options.type.c_str(),
                static_cast<unsigned long long>(options.seed), static_cast<unsigned long long>(options.seed));
  std::printf("%s[x>t 0.50]: predicate x > t (or x != 0), half of the elements kept. GB/s = (read n + write kept) / time;\n"
              "%sx copy = time / time of cudaMemcpy D2D of n elements in this run; model = the traffic model's prediction of it\n",
              c, c);
  if (!options.suite) std::printf(options.csv ? "%s\n" : "\n%s\n", (options.csv ? sg::csv_header() : sg::table_header()).c_str());
  std::fflush(stdout);
}

}  // namespace

bool run_program(const sg::Options& options, const sg::DeviceInfo& device, const std::vector<double>& keep,
                 const std::vector<Rule>& rules) {
  print_compaction_preamble(options, device, std::string("Scan Gallery ") + Chapter::id + ": " + Chapter::title);
  TableChoices choices;
  choices.keep = keep;
  choices.rules = rules;
  return run_typed(options, device, choices, "");
}

std::vector<std::string> variant_names(const sg::Options& options, const std::string& prefix) {
  if (options.type == "int64") return names_for<std::int64_t>(prefix);
  if (options.type == "float") return names_for<float>(prefix);
  return names_for<std::int32_t>(prefix);
}

bool tour_table(const sg::Options& options, const sg::DeviceInfo& device) {
  if (options.suite && options.timing) {
    std::printf("\nchapter 10's suite validates only (run the tour with --n suite --no-timing to include it)\n");
    return true;
  }
  if (!options.csv) std::printf("\n");
  print_compaction_preamble(options, device, "Scan Gallery tour, chapter 10: stream compaction (a use of scan) against a copy");
  TableChoices choices;
  choices.keep = {0.5};
  sg::Options tour_options = options;
  if (tour_options.type != "int64" && tour_options.type != "float") tour_options.type = "int32";
  return run_typed(tour_options, device, choices, "10 ");
}

}  // namespace ch10

// Chapter 04 - Blelloch. Prints every layout's exclusive and inclusive tile-local scan
// against a device-to-device copy, then what the bank-conflict model (bank_model.cuh)
// predicts Nsight Compute will count for each, to compare with common/profile.sh.
//
// Run: ./build/bin/04_blelloch --n 2^26
//      common/profile.sh 04_blelloch --n 2^24
#include "04_blelloch/bank_model.cuh"
#include "04_blelloch/variants.cuh"
#include "common/program.cuh"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

struct Predicted {
  std::string name;
  ch04::SharedTraffic per_tile;
};

template <typename T>
std::vector<Predicted> predictions() {
  using namespace ch04;
  const int bytes = static_cast<int>(sizeof(T));
  return {
      {"classic/exclusive", predict_shared_traffic<Classic>(bytes, false)},
      {"classic/inclusive", predict_shared_traffic<Classic>(bytes, true)},
      {"padded/exclusive", predict_shared_traffic<Padded<T>>(bytes, false)},
      {"padded/inclusive", predict_shared_traffic<Padded<T>>(bytes, true)},
      {"level_by_level/exclusive", predict_shared_traffic<LevelByLevel>(bytes, false)},
      {"level_by_level/inclusive", predict_shared_traffic<LevelByLevel>(bytes, true)},
  };
}

void print_bank_model(const sg::Options& options) {
  std::size_t n = 0;
  for (std::size_t size : options.sizes) n = std::max(n, size);
  const long long tiles = static_cast<long long>((n + ch04::kTile - 1) / ch04::kTile);
  const std::vector<Predicted> rows = options.type == "int64" ? predictions<std::int64_t>() : predictions<std::int32_t>();
  std::printf("\nshared-memory bank model (bank_model.cuh), %s: wavefronts and bank conflicts (wavefronts beyond the\n"
              "minimum), per tile of %d and for the %lld tiles of n = %zu; Nsight Compute's counters for one launch\n"
              "(common/profile.sh 04_blelloch --n %zu) compare with the last four columns (the model does not\n"
              "know that the compiler merges adjacent accesses into 8-byte ones; the README compares both):\n",
              options.type.c_str(), ch04::kTile, tiles, n, n);
  std::printf("  %-26s %9s %9s %9s %9s | %14s %14s %14s %14s\n", "variant", "ld wf", "ld confl", "st wf", "st confl",
              "ld wavefronts", "ld conflicts", "st wavefronts", "st conflicts");
  for (const Predicted& row : rows) {
    if (!sg::variant_selected(options, row.name)) continue;
    const ch04::OpTraffic& ld = row.per_tile.loads;
    const ch04::OpTraffic& st = row.per_tile.stores;
    std::printf("  %-26s %9lld %9lld %9lld %9lld | %14lld %14lld %14lld %14lld\n", row.name.c_str(), ld.wavefronts, ld.conflicts(),
                st.wavefronts, st.conflicts(), ld.wavefronts * tiles, ld.conflicts() * tiles, st.wavefronts * tiles,
                st.conflicts() * tiles);
  }
}

}  // namespace

int main(int argc, char** argv) {
  using Chapter = ch04::Chapter;
  return sg::program_main(argc, argv, std::string(Chapter::id) + ": " + Chapter::title, sg::chapter_options<Chapter>(),
                          [](const sg::Options& options, const sg::DeviceInfo& device) {
    const bool valid = sg::run_chapter<Chapter>(options, device);
    if (!options.csv) print_bank_model(options);
    return valid;
  });
}

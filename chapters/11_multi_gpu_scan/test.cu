// Chapter 11 tests: the shards' split (host); every variant on one GPU (suite "gpu") and over
// two GPUs and all of them (suite "multi_gpu", skipped with the reason on a machine with fewer
// than two), for every element type and operator, the non-commutative one included, at the
// sizes that break scans: empty and one-element shards, both sides of tile boundaries inside a
// shard, non-powers of two. Every output starts poisoned and is checked element by element
// against the CPU reference and, independently of the variant's own exchange, against the
// recurrence and CUB's shard totals (table.cuh).
#include "09_decoupled_lookback/tuned.cuh"
#include "11_multi_gpu_scan/table.cuh"
#include "11_multi_gpu_scan/variants.cuh"
#include "tests/support/check_variant.cuh"

#include <string>
#include <vector>

TEST_CASE("11: shards split n evenly, in order, with nothing left over") {
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{1000003}, (std::size_t{1} << 40) + 7}) {
    for (int gpus : {1, 2, 3, 4, 8}) {
      std::size_t next = 0, smallest = ~std::size_t{0}, largest = 0;
      for (int g = 0; g < gpus; ++g) {
        const ch11::Range range = ch11::shard_of(n, gpus, g);
        CHECK(range.begin == next);
        next = range.begin + range.count;
        smallest = std::min(smallest, range.count);
        largest = std::max(largest, range.count);
      }
      CHECK(next == n);
      CHECK(largest - smallest <= 1);
    }
  }
}

TEST_CASE("11: the timeline draws each GPU's phases to scale, named after the variant") {
  const std::string text = ch11::timeline_text("reduce_exchange_scan/inclusive", {{1.0, 1.5, 3.0}, {1.2, 1.5, 2.0}});
  CHECK(text.find("'=' reduce, 'x' exchange, '#' scan") != std::string::npos);
  CHECK(text.find("GPU 0  reduce 0.000-1.000  exchange 1.000-1.500  scan 1.500-3.000  |" + std::string(20, '=') + std::string(10, 'x') +
                  std::string(30, '#') + "|") != std::string::npos);
  CHECK(text.find("GPU 1  reduce 0.000-1.200  exchange 1.200-1.500  scan 1.500-2.000  |" + std::string(24, '=') + std::string(6, 'x') +
                  std::string(10, '#') + std::string(20, ' ') + "|") != std::string::npos);
  // an exchange too short to see still gets its character
  CHECK(ch11::timeline_text("scan_exchange_fixup/exclusive", {{1.0, 1.0, 2.0}}).find("|" + std::string(30, '=') + "x" + std::string(29, '#')) !=
        std::string::npos);
}

namespace {

// Sizes that break a distributed scan over `gpus` GPUs: empty and single-element shards, a
// shard boundary one element either side of a tile boundary of chapter 09's scan, and
// non-powers of two.
template <typename T>
std::vector<std::size_t> distributed_sizes(int gpus) {
  const std::size_t tile = ch09::kTunedTileItems<T, ch09::Tuned>;
  const std::size_t g = static_cast<std::size_t>(gpus);
  return {0, 1, g - 1 > 0 ? g - 1 : 2, g, g + 1, 31, 33, g * tile - 1, g * tile + 1, g * (3 * tile + 17), 1000003, (std::size_t{3} << 20) + 1};
}

template <typename T, typename Op>
void check_on(int gpu_count) {
  ch11::Gpus gpus(gpu_count);
  sg::Options options;
  options.timing = false;
  for (std::size_t n : distributed_sizes<T>(gpu_count)) {
    ch11::Distributed<T> data(gpus, n);
    options.seed = sg_test::seed() + n;
    gpus.on_each([&](int g) {
      sg::fill_random<T, Op>(data.in[g].data(), data.ranges[g].count, options.seed, gpus.stream(g), data.ranges[g].begin);
    });
    for (const auto& variant : ch11::Chapter::variants<T, Op>()) {
      const ch11::Row single;
      for (int run = 0; run < 2; ++run) {  // twice: state left behind by the first must not matter
        const ch11::Row row = ch11::run_variant<T, Op>(
            gpus, data, variant, variant.exclusive ? ch11::check_distributed<T, Op, true> : ch11::check_distributed<T, Op, false>,
            options, single);
        INFO(variant.name, " (", sg::type_name<T>(), " ", Op::name, ") over ", gpu_count, " GPU(s), n = ", n, ", run ", run,
             ", seed ", options.seed);
        CHECK_MESSAGE(row.check == "ok", row.check);
      }
    }
  }
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE_TEMPLATE("11: one GPU: every variant matches the CPU reference", E, SG_FULL_ARRAY_TEST_ELEMENTS) {
    check_on<typename E::type, typename E::op>(1);
  }
}

TEST_SUITE("multi_gpu") {
  TEST_CASE_TEMPLATE("11: two GPUs, and all of them: every variant matches the CPU reference", E, SG_FULL_ARRAY_TEST_ELEMENTS) {
    check_on<typename E::type, typename E::op>(2);
    if (ch11::visible_gpus() > 2) check_on<typename E::type, typename E::op>(ch11::visible_gpus());
  }

  TEST_CASE("11: a large int32 array (2^25 + 3, full depth 2^28 + 3) over every GPU") {
    if (!sg_test::large_sizes_enabled()) return;
    ch11::Gpus gpus(ch11::visible_gpus());
    sg::Options options;
    options.timing = false;
    options.seed = sg_test::seed();
    ch11::Distributed<std::int32_t> data(gpus, sg_test::large_size());
    gpus.on_each([&](int g) {
      sg::fill_random<std::int32_t, sg::Sum>(data.in[g].data(), data.ranges[g].count, options.seed, gpus.stream(g), data.ranges[g].begin);
    });
    for (const auto& variant : ch11::Chapter::variants<std::int32_t, sg::Sum>()) {
      const ch11::Row row = ch11::run_variant<std::int32_t, sg::Sum>(
          gpus, data, variant,
          variant.exclusive ? ch11::check_distributed<std::int32_t, sg::Sum, true> : ch11::check_distributed<std::int32_t, sg::Sum, false>,
          options, ch11::Row{});
      INFO(variant.name, " over ", gpus.count(), " GPUs, seed ", options.seed);
      CHECK_MESSAGE(row.check == "ok", row.check);
    }
  }
}

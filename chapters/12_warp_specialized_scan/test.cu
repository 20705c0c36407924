// Chapter 12 tests: every step against the CPU reference (the non-commutative operator included,
// inclusive and exclusive); input and output at every misalignment, the same and different (the
// bulk copies' heads and tails, and the ordinary-store path); launch after launch around the
// final kernel's change of shape and around whole rounds of tiles (the ticket resets itself, the
// status words are never cleared); a grid of three blocks, each going round its ring; the
// epoch's wrap-around.
#include "12_warp_specialized_scan/ladder.cuh"
#include "12_warp_specialized_scan/variants.cuh"
#include "12_warp_specialized_scan/warp_specialized.cuh"
#include "09_decoupled_lookback/epoch_checks.cuh"
#include "tests/support/check_variant.cuh"

#include <string>
#include <vector>

namespace {

bool starts_with(const std::string& name, const char* prefix) { return name.rfind(prefix, 0) == 0; }

// Steps 1-5 and the final kernel's small shape tile 16 KiB, its whole-SM shape 32 KiB.
template <typename T>
constexpr std::size_t kSmallTile = ch12::Ladder<1>::kTile<T>;
template <typename T>
constexpr std::size_t kWholeSmTile = ch12::kTileItems<T, 16>;

// The first size the final kernel runs one block per SM at: a 32 KiB tile for every block.
template <typename T>
std::size_t whole_sm_from() {
  return ch12::persistent_grid(~0ull, static_cast<unsigned>(ch12::sm_count())) * kWholeSmTile<T>;
}

struct GridLimit {
  explicit GridLimit(unsigned blocks) { ch12::grid_limit() = blocks; }
  ~GridLimit() { ch12::grid_limit() = 0; }
};

}  // namespace

TEST_CASE_TEMPLATE("12: the variant list is well-formed", E, SG_FULL_ARRAY_TEST_ELEMENTS) {
  sg_test::check_variant_list<ch12::Chapter, typename E::type, typename E::op>();
}

TEST_CASE("12: a tile is whole 16-byte vectors, 4 per thread, and stages start 128-byte aligned") {
  CHECK(kSmallTile<std::int32_t> * sizeof(std::int32_t) == 16384);
  CHECK(kWholeSmTile<std::int64_t> * sizeof(std::int64_t) == 32768);
  CHECK(ch12::kItems<std::int64_t> * sizeof(std::int64_t) == 4 * 16);
  CHECK(ch12::kStatusStride<std::int32_t, 32> * sizeof(ch08::PackedWord<std::int32_t>) == 32);
  CHECK(ch12::kStatusStride<std::int64_t, 32> * sizeof(ch08::PackedWord<std::int64_t>) == 32);
}

TEST_SUITE("gpu") {
  TEST_CASE_TEMPLATE("12: every step matches the CPU reference", E, SG_FULL_ARRAY_TEST_ELEMENTS) {
    using T = typename E::type;
    for (const auto& variant : ch12::Chapter::variants<T, typename E::op>()) sg_test::check_variant(variant, kSmallTile<T>);
  }

  TEST_CASE_TEMPLATE("12: input and output at any misalignment, the same or different", E, SG_FULL_ARRAY_TEST_ELEMENTS) {
    using T = typename E::type;
    constexpr std::size_t kPerVector = 16 / sizeof(T);
    auto check_all_offsets = [](const auto& variant, std::vector<std::size_t> sizes) {
      for (std::size_t n : sizes)
        for (std::size_t in_offset = 0; in_offset < kPerVector; ++in_offset)
          for (std::size_t out_offset = 0; out_offset < kPerVector; ++out_offset)
            if (in_offset + out_offset > 0) sg_test::check_offsets(variant, n, in_offset, out_offset);
    };
    const std::size_t tile = kSmallTile<T>;
    for (const auto& variant : ch12::Chapter::variants<T, typename E::op>())
      if (!starts_with(variant.name, "baseline/")) check_all_offsets(variant, {1, 2, 5, tile - 1, tile + 1, 3 * tile + 17});
    // the final kernel's whole-SM shape, with a grid of three blocks (so at small sizes)
    const GridLimit three(3);
    const std::size_t from = whole_sm_from<T>(), big = kWholeSmTile<T>;
    for (const auto& variant : ch12::Chapter::variants<T, typename E::op>())
      if (starts_with(variant.name, "6_")) check_all_offsets(variant, {from + 1, from + big - 1, from + 3 * big + 17});
  }

  TEST_CASE("12: launch after launch, large after small: the ticket and the status words are never cleared") {
    const std::size_t sms = static_cast<std::size_t>(sg::require_device().sm_count);
    const std::size_t from = whole_sm_from<std::int32_t>();
    std::vector<std::size_t> sizes = {33, 1, from - 1, from, from + 1, (std::size_t{30} << 20) + 3};
    // tile counts just below and above one and four rounds of each tile, and around the ticket's last two rounds
    for (std::size_t tile : {kSmallTile<std::int32_t>, kWholeSmTile<std::int32_t>})
      for (std::size_t rounds : {std::size_t{1}, std::size_t{3}, std::size_t{4}})
        for (long long delta : {-7LL, 7LL}) sizes.push_back(static_cast<std::size_t>(static_cast<long long>(rounds * sms * tile) + delta));
    for (const auto& variant : ch12::Chapter::variants<std::int32_t, sg::Sum>())
      if (!starts_with(variant.name, "baseline/")) sg_test::check_repeated(variant, sizes, sg_test::repetitions(2, 10));
  }

  // Three blocks: each goes round its ring many times even at these small sizes, so every stage
  // is handed back and refilled, and the final kernel runs both shapes. One-hot inputs at the
  // first and last tile of a lap.
  TEST_CASE_TEMPLATE("12: a grid of three blocks, each going round its ring", E, SG_FULL_ARRAY_TEST_ELEMENTS) {
    using T = typename E::type;
    const GridLimit three(3);
    constexpr std::size_t kLap = 3 * ch12::kMaxStages;  // tiles after which every block has reused every stage
    for (const auto& variant : ch12::Chapter::variants<T, typename E::op>()) {
      if (starts_with(variant.name, "baseline/")) continue;
      for (std::size_t tile : {kSmallTile<T>, kWholeSmTile<T>}) {
        if (tile == kWholeSmTile<T> && !starts_with(variant.name, "6_")) continue;
        const std::size_t start = tile == kSmallTile<T> ? 0 : whole_sm_from<T>();
        sg_test::check_random(variant, {start + 1, start + 3 * tile + 1, start + kLap * tile - 1, start + kLap * tile + 1,
                                        start + 3 * kLap * tile + 17});
        sg_test::check_one_hot(variant, start + kLap * tile + 5,
                               {start, start + tile - 1, start + (kLap - 1) * tile, start + kLap * tile + 4});
      }
    }
  }

  TEST_CASE("12: across the epoch's wrap-around") {
    ch09_test::check_epoch_wraparound<ch12::Chapter>("3_device_geometry", "3_device_geometry");        // packed words
    ch09_test::check_epoch_wraparound<ch12::Chapter>("5_prefetch_next_tile", "5_prefetch_next_tile");  // a sector apart
    ch09_test::check_epoch_wraparound<ch12::Chapter>("6_one_block_per_SM/inclusive", "6_one_block_per_SM/exclusive");
  }

  TEST_CASE("12: the GPU runs the warp-specialized kernel, or the program says it falls back") {
    const sg::DeviceInfo device = sg::require_device();
    if (device.major >= 9) CHECK_MESSAGE(ch12::runs_bulk_copy_kernel(), "an sm_90 GPU, but the kernel has no sm_90 code: build for 90");
    else MESSAGE("sm_", device.major, device.minor, ": every step runs chapter 09's v4 (no bulk copies before sm_90)");
  }
}

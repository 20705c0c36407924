// Chapter 12 tests: every step against the CPU reference (the non-commutative operator
// included, inclusive and exclusive); input and output at every misalignment, the same and
// different (the bulk copies' heads and tails, and the ordinary-store path); launch after
// launch at tile counts around multiples of the grid (the persistent ticket resets itself);
// a grid of three blocks, each going round its ring; the epoch's wrap-around.
#include "12_warp_specialized_scan/persistent.cuh"
#include "12_warp_specialized_scan/variants.cuh"
#include "12_warp_specialized_scan/warp_specialized.cuh"
#include "09_decoupled_lookback/epoch_checks.cuh"
#include "tests/support/check_variant.cuh"

#include <string>
#include <vector>

TEST_CASE_TEMPLATE("12: the variant list is well-formed", E, SG_FULL_ARRAY_TEST_ELEMENTS) {
  sg_test::check_variant_list<ch12::Chapter, typename E::type, typename E::op>();
}

TEST_CASE("12: a tile is whole 16-byte vectors and a power of two of them per thread") {
  CHECK(ch12::kTileBytes<ch12::SectorStatus> % 128 == 0);  // every stage starts 128-byte aligned
  CHECK(ch12::kTileBytes<ch12::WholeSmTicketTail> == 2 * ch12::kTileBytes<ch12::SectorStatus>);
  CHECK(ch12::kItems<std::int32_t> * sizeof(std::int32_t) % 16 == 0);
  CHECK(ch12::kItems<std::int64_t> * sizeof(std::int64_t) % 16 == 0);
  CHECK(ch12::kTileItems<float, ch12::SectorStatus> == ch12::kTileItems<std::int32_t, ch12::SectorStatus>);
}

namespace {

bool starts_with(const std::string& name, const char* prefix) { return name.rfind(prefix, 0) == 0; }

// The tile whose boundaries break a variant: step 1 and chapter 09 use chapter 09's tuned
// tile, CUB one close to it, steps 2-9 and the sweep the 16 KiB tile of this chapter, step 10
// (and its sweep and diagnostic rows, and the kernels of that shape of steps 12 to 15 with
// their sweep rows) the 32 KiB one. Steps 11 to 15 take step 9's shape at every size these tests
// use but those around their thresholds (launch after launch, below), and step 10's shape above.
template <typename T, typename Op>
std::size_t boundary_of(const sg::Variant<T, Op>& variant) {
  if (starts_with(variant.name, "1_") || starts_with(variant.name, "baseline/")) return ch09::kTunedTileItems<T, ch09::Tuned>;
  if (starts_with(variant.name, "10_") || starts_with(variant.name, "sweep/10_") || starts_with(variant.name, "sweep/12_") ||
      starts_with(variant.name, "diagnostic/10_") || starts_with(variant.name, "diagnostic/12_") || starts_with(variant.name, "diagnostic/14_") ||
      starts_with(variant.name, "diagnostic/15_"))
    return ch12::kTileItems<T, ch12::WholeSmTicketTail>;
  return ch12::kTileItems<T, ch12::SectorStatus>;
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE_TEMPLATE("12: every step matches the CPU reference", E, SG_FULL_ARRAY_TEST_ELEMENTS) {
    for (const auto& variant : ch12::Chapter::variants<typename E::type, typename E::op>()) {
      if (starts_with(variant.name, "sweep/")) sg_test::check_random(variant, sg_test::sizes_around(boundary_of(variant)));
      else sg_test::check_variant(variant, boundary_of(variant));
    }
  }

  TEST_CASE_TEMPLATE("12: input and output at any misalignment, the same or different", E, SG_FULL_ARRAY_TEST_ELEMENTS) {
    using T = typename E::type;
    constexpr std::size_t kPerVector = 16 / sizeof(T);
    for (const auto& variant : ch12::Chapter::variants<T, typename E::op>()) {
      // (and step 14's middle shape, which stores a tile by warps: each warp its own head or tail,
      // and step 15's kernel, which scans a tile's filled ends when it lands)
      if (starts_with(variant.name, "sweep/") || starts_with(variant.name, "baseline/") ||
          (starts_with(variant.name, "diagnostic/") && !starts_with(variant.name, "diagnostic/14_") &&
           !starts_with(variant.name, "diagnostic/15_")))
        continue;
      const std::size_t tile = boundary_of(variant);
      for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{5}, tile - 1, tile + 1, 3 * tile + 17})
        for (std::size_t in_offset = 0; in_offset < kPerVector; ++in_offset)
          for (std::size_t out_offset = 0; out_offset < kPerVector; ++out_offset)
            if (in_offset + out_offset > 0) sg_test::check_offsets(variant, n, in_offset, out_offset);
    }
  }

  TEST_CASE("12: launch after launch, large after small: the ticket and the status words are never cleared") {
    const std::size_t sms = static_cast<std::size_t>(sg::require_device().sm_count);
    std::vector<std::size_t> sizes = {33, 1, (std::size_t{30} << 20) + 3};
    // tile counts just below and above one and four tiles per SM (of steps 2-9's tile and step 10's)
    for (std::size_t tile : {ch12::kTileItems<std::int32_t, ch12::SectorStatus>, ch12::kTileItems<std::int32_t, ch12::WholeSmTicketTail>})
      for (std::size_t multiple : {std::size_t{1}, std::size_t{4}})
        for (long long delta : {-7LL, 7LL}) sizes.push_back(static_cast<std::size_t>(static_cast<long long>(multiple * sms * tile) + delta));
    // the thresholds of step 11 and of steps 12 and 13, where they change shape, on either side
    const std::size_t threshold = ch12::kWholeSmRounds * sms * ch12::kTileItems<std::int32_t, ch12::WholeSmTicketTail>;
    sizes.push_back(threshold - 1);
    sizes.push_back(threshold);
    CHECK(!ch12::whole_sm_pays<std::int32_t>(threshold - 1));
    CHECK(ch12::whole_sm_pays<std::int32_t>(threshold));
    const std::size_t threshold_12 = ch12::kBarrierFreeRounds * sms * ch12::kTileItems<std::int32_t, ch12::WholeSmTicketTail>;
    sizes.push_back(threshold_12 - 1);
    sizes.push_back(threshold_12);
    CHECK(!ch12::whole_sm_pays<std::int32_t>(threshold_12 - 1, ch12::kBarrierFreeRounds));
    CHECK(ch12::whole_sm_pays<std::int32_t>(threshold_12, ch12::kBarrierFreeRounds));
    // step 14's two, for steps 14 and 15 alone (at 52M elements, every step would double the test's time)
    std::vector<std::size_t> sizes_14 = sizes;
    for (std::size_t rounds : {ch12::kWarpStoresRounds, ch12::kTileStoresRounds}) {
      const std::size_t threshold_14 = rounds * sms * ch12::kTileItems<std::int32_t, ch12::WholeSmTicketTail>;
      sizes_14.push_back(threshold_14 - 1);
      sizes_14.push_back(threshold_14);
      CHECK(!ch12::whole_sm_pays<std::int32_t>(threshold_14 - 1, rounds));
      CHECK(ch12::whole_sm_pays<std::int32_t>(threshold_14, rounds));
    }
    for (const auto& variant : ch12::Chapter::variants<std::int32_t, sg::Sum>()) {
      if (starts_with(variant.name, "sweep/") || starts_with(variant.name, "baseline/") || starts_with(variant.name, "diagnostic/")) continue;
      sg_test::check_repeated(variant, starts_with(variant.name, "14_") || starts_with(variant.name, "15_") ? sizes_14 : sizes, sg_test::repetitions(3, 10));
    }
  }

  // Three blocks: each goes round its ring several times even at these small sizes, so every
  // stage is handed back and refilled (at the GPU's full grid, only arrays of millions of
  // elements do that). One-hot inputs at the first and last tile of a lap.
  TEST_CASE_TEMPLATE("12: a grid of three blocks, each going round its ring", E, SG_FULL_ARRAY_TEST_ELEMENTS) {
    using T = typename E::type;
    struct GridLimit {
      GridLimit() { ch12::grid_limit() = 3; }
      ~GridLimit() { ch12::grid_limit() = 0; }
    } three_blocks;
    constexpr std::size_t kLap = 3 * ch12::kMaxStages;  // tiles after which every block has reused every stage
    for (const auto& variant : ch12::Chapter::variants<T, typename E::op>()) {
      if (starts_with(variant.name, "baseline/")) continue;
      const std::size_t tile = boundary_of(variant);
      sg_test::check_random(variant, {1, 3 * tile + 1, kLap * tile - 1, kLap * tile + 1, 3 * kLap * tile + 17});
      sg_test::check_one_hot(variant, kLap * tile + 5, {0, tile - 1, (kLap - 1) * tile, kLap * tile + 4});
    }
  }

  TEST_CASE("12: across the epoch's wrap-around") {
    ch09_test::check_epoch_wraparound<ch12::Chapter>("6_early_release/inclusive", "6_early_release/exclusive");
    ch09_test::check_epoch_wraparound<ch12::Chapter>("7_spread_status/inclusive", "7_spread_status/exclusive");  // its words a line apart
    ch09_test::check_epoch_wraparound<ch12::Chapter>("9_sector_status/inclusive", "9_sector_status/exclusive");  // a sector apart
    ch09_test::check_epoch_wraparound<ch12::Chapter>("10_one_block_per_SM/inclusive", "10_one_block_per_SM/exclusive");  // 32 KiB tiles
    ch09_test::check_epoch_wraparound<ch12::Chapter>("12_barrier_free_scan/inclusive", "12_barrier_free_scan/exclusive");  // the scan without barriers
    ch09_test::check_epoch_wraparound<ch12::Chapter>("13_items_as_laid/inclusive", "13_items_as_laid/exclusive");  // the items kept as read
    // the one-block-per-SM kernels of steps 13, 14 and 15, which those steps run on arrays larger than these
    ch09_test::check_epoch_wraparound<ch12::Chapter>("diagnostic/12_one_block_per_SM/items_as_laid/inclusive",
                                                     "diagnostic/12_one_block_per_SM/items_as_laid/exclusive");
    ch09_test::check_epoch_wraparound<ch12::Chapter>("diagnostic/14_one_block_per_SM/warp_stores/inclusive",
                                                     "diagnostic/14_one_block_per_SM/warp_stores/exclusive");
    ch09_test::check_epoch_wraparound<ch12::Chapter>("diagnostic/15_one_block_per_SM/inclusive", "diagnostic/15_one_block_per_SM/exclusive");
  }


  TEST_CASE("12: the GPU runs the warp-specialized kernel, or the program says it falls back") {
    const sg::DeviceInfo device = sg::require_device();
    if (device.major >= 9) CHECK_MESSAGE(ch12::runs_bulk_copy_kernel(), "an sm_90 GPU, but the kernel has no sm_90 code: build for 90");
    else MESSAGE("sm_", device.major, device.minor, ": steps 2-11 run chapter 09's v4 (no bulk copies before sm_90)");
  }
}

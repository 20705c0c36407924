// Chapter 09 tests: every version against the CPU reference (the non-commutative operator
// included); v4 over many launches in a row (its status words are never cleared, so every
// launch must recognise the words the launches before it left), across the epoch's
// wrap-around, and at tile counts just above a multiple of the SM count.
#include "09_decoupled_lookback/lookback.cuh"
#include "09_decoupled_lookback/tuned.cuh"
#include "09_decoupled_lookback/variants.cuh"
#include "09_decoupled_lookback/epoch_checks.cuh"
#include "tests/support/check_variant.cuh"

#include <string>
#include <vector>

TEST_CASE_TEMPLATE("09: the variant list is well-formed", E, SG_FULL_ARRAY_TEST_ELEMENTS) {
  sg_test::check_variant_list<ch09::Chapter, typename E::type, typename E::op>();
}

TEST_SUITE("gpu") {
  TEST_CASE_TEMPLATE("09: every version matches the CPU reference", E, SG_FULL_ARRAY_TEST_ELEMENTS) {
    using T = typename E::type;
    for (const auto& variant : ch09::Chapter::variants<T, typename E::op>()) {
      // each version's own tile: v1-v3 and the first two steps of the ladder use chapter 08's,
      // steps 3-5 CUB's, the rest (and CUB, whose tile is close) the tuned one
      const bool big = variant.name.rfind("v1", 0) == 0 || variant.name.rfind("v2", 0) == 0 || variant.name.rfind("v3", 0) == 0 ||
                       variant.name.rfind("v4/ladder/1", 0) == 0 || variant.name.rfind("v4/ladder/2", 0) == 0;
      const bool cub_tile = variant.name.rfind("v4/ladder/3", 0) == 0 || variant.name.rfind("v4/ladder/4", 0) == 0 ||
                            variant.name.rfind("v4/ladder/5", 0) == 0;
      const std::size_t boundary = variant.tile != 0 ? variant.tile
                                   : big             ? ch09::kTileItems<T>
                                   : cub_tile        ? ch09::kTunedTileItems<T, ch09::CubTile>
                                                     : ch09::kTunedTileItems<T, ch09::Tuned>;
      // the sweep's rows differ from v4/tuned in one knob each: the sizes that break scans,
      // without the 2^28 one every other version runs
      if (variant.name.rfind("v4/sweep", 0) == 0) sg_test::check_random(variant, sg_test::sizes_around(boundary));
      else sg_test::check_variant(variant, boundary);
    }
  }

  TEST_CASE_TEMPLATE("09: misaligned arrays stay correct", E, SG_TEST_ELEMENTS) {
    using T = typename E::type;
    const std::size_t tile = ch09::kTileItems<T>;
    for (const auto& variant : ch09::Chapter::variants<T, typename E::op>())
      sg_test::check_misaligned(variant, {1, tile - 1, tile + 1, 3 * tile + 17});
  }

  TEST_CASE("09: launch after launch, large after small: no status is ever cleared, none is misread") {
    const std::size_t sms = static_cast<std::size_t>(sg::require_device().sm_count);
    // tile counts just above multiples of the SM count (for v1-v3's tiles and v4's), a size
    // above L2, and small ones
    std::vector<std::size_t> sizes = {33, 1, (std::size_t{30} << 20) + 3};
    for (std::size_t tile : {ch09::kTileItems<std::int32_t>, ch09::kTunedTileItems<std::int32_t, ch09::Tuned>})
      for (std::size_t multiple : {std::size_t{1}, std::size_t{4}}) sizes.push_back((multiple * sms + 1) * tile - 7);
    for (const auto& variant : ch09::Chapter::variants<std::int32_t, sg::Sum>()) {
      if (variant.tile != 0 || variant.name.rfind("v4/sweep", 0) == 0) continue;
      sg_test::check_repeated(variant, sizes, variant.name.rfind("v4", 0) == 0 ? sg_test::repetitions(3, 10) : sg_test::repetitions(1, 3));
    }
  }

  TEST_CASE("09: v4 across the epoch's wrap-around") {
    ch09_test::check_epoch_wraparound<ch09::Chapter>("v4/tuned/inclusive", "v4/tuned/exclusive");
  }
}

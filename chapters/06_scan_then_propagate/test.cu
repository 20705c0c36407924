// Chapter 06 tests: the hierarchy's arithmetic on the host; every variant on the GPU, with
// sizes and one-hot inputs at the boundaries of the second level (tile^2).
#include "06_scan_then_propagate/scan_then_propagate.cuh"
#include "06_scan_then_propagate/variants.cuh"
#include "tests/support/check_variant.cuh"

#include <vector>

TEST_CASE_TEMPLATE("06: the variant list is well-formed", E, SG_FULL_ARRAY_TEST_ELEMENTS) {
  sg_test::check_variant_list<ch06::Chapter, typename E::type, typename E::op>();
}

TEST_CASE("06: as many levels as n needs, never capped") {
  using ch06::levels_for;
  CHECK(levels_for(0, 2048).count == 0);
  CHECK(levels_for(1, 2048).count == 1);
  CHECK(levels_for(2048, 2048).count == 1);
  CHECK(levels_for(2049, 2048).count == 2);
  CHECK(levels_for(2049, 2048).size[1] == 2);
  CHECK(levels_for(std::size_t{2048} * 2048, 2048).count == 2);      // tile^2: two levels
  CHECK(levels_for(std::size_t{2048} * 2048 + 1, 2048).count == 3);  // one more element: three
  const ch06::Levels big = levels_for(std::size_t{1} << 26, 2048);
  CHECK(big.count == 3);
  CHECK(big.size[1] == 32768);
  CHECK(big.size[2] == 16);
  CHECK(levels_for(std::size_t{1} << 40, 1024).count == 4);  // 2^40 -> 2^30 -> 2^20 -> 2^10
  CHECK(levels_for((std::size_t{1} << 62) + 1, 8).count == 21);  // the deepest hierarchy kMaxLevels allows for
  CHECK(ch06::launches_for(0, 2048) == 0);
  CHECK(ch06::launches_for(100, 2048) == 1);
  CHECK(ch06::launches_for(std::size_t{1} << 26, 2048) == 5);
}

TEST_CASE("06: the model moves about 4n, and the scratch holds two arrays per level above the first") {
  const std::size_t n = std::size_t{1} << 26;
  CHECK(ch06::bytes_moved(n, 2048, 4) / sg::copy_bytes(n, 4) == doctest::Approx(2.0).epsilon(0.002));
  CHECK(ch06::bytes_moved(n, 2048, 4) > 4.0 * n * 4 - 2.0 * 2048 * 4);  // nothing forgotten
  CHECK(ch06::bytes_moved(1000, 2048, 4) == 2000.0 * 4);                // one tile: read and write once
  CHECK(ch06::scratch_elements<int>(n, 2048) == 2 * (32768 + 16));
  CHECK(ch06::scratch_elements<int>(2048, 2048) == 0);
}

TEST_SUITE("gpu") {
  TEST_CASE_TEMPLATE("06: every variant matches the CPU reference", E, SG_FULL_ARRAY_TEST_ELEMENTS) {
    sg_test::check_chapter<ch06::Chapter, typename E::type, typename E::op>(ch06::kTileItems<typename E::type, 256, 32>);
  }

  TEST_CASE_TEMPLATE("06: around tile^2, where a third level appears", E, SG_FULL_ARRAY_TEST_ELEMENTS) {
    using T = typename E::type;
    using Op = typename E::op;
    // the 128-thread variant has the smallest tile: tile^2 is about a million elements
    const auto variants = ch06::Chapter::variants<T, Op>();
    const std::size_t tile = ch06::kTileItems<T, 128, 32>;
    for (const auto& variant : variants) {
      if (variant.name != "scan_then_propagate/128x32B") continue;
      sg_test::check_random(variant, {tile * tile - 1, tile * tile, tile * tile + 1, tile * tile + tile + 1});
      sg_test::check_one_hot(variant, tile * tile + 3, {tile * tile - 1, tile * tile, tile * tile + 2});
    }
  }

  TEST_CASE_TEMPLATE("06: misaligned arrays take the element-by-element paths and stay correct", E, SG_TEST_ELEMENTS) {
    using T = typename E::type;
    const std::size_t tile = ch06::kTileItems<T, 256, 32>;
    for (const auto& variant : ch06::Chapter::variants<T, typename E::op>())
      sg_test::check_misaligned(variant, {1, tile - 1, tile + 1, 3 * tile + 17});
  }
}

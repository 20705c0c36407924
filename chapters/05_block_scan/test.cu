// Chapter 05 tests: the tile geometry on the host; every move and geometry on the GPU.
#include "05_block_scan/tile_local.cuh"
#include "05_block_scan/variants.cuh"
#include "tests/support/check_variant.cuh"

TEST_CASE_TEMPLATE("05: the variant list is well-formed", E, SG_TEST_ELEMENTS) {
  sg_test::check_variant_list<ch05::Chapter, typename E::type, typename E::op>();
}

TEST_CASE("05: items per thread follow the bytes per thread, and vectors need whole 16-byte runs") {
  CHECK(ch05::kItemsPerThread<std::int32_t> == 8);
  CHECK(ch05::kItemsPerThread<std::int64_t> == 4);
  CHECK(ch05::kItemsPerThread<std::int32_t, 64> == 16);
  CHECK(ch05::kItemsPerThread<float, 16> == 4);
  CHECK(ch05::kItemsPerThread<std::int64_t, 4> == 1);  // never zero
  CHECK(ch05::kTileItems<std::int32_t> == 2048);
  CHECK(ch05::kVectorisable<std::int32_t, 4>);
  CHECK_FALSE(ch05::kVectorisable<std::int32_t, 2>);
  CHECK(ch05::kVectorisable<std::int64_t, 2>);
}

TEST_SUITE("gpu") {
  TEST_CASE_TEMPLATE("05: every tile move and geometry matches the tile-wise CPU reference", E, SG_TEST_ELEMENTS) {
    sg_test::check_chapter<ch05::Chapter, typename E::type, typename E::op>(ch05::kTileItems<typename E::type>);
  }

  TEST_CASE_TEMPLATE("05: misaligned arrays take the element-by-element path and stay correct", E, SG_TEST_ELEMENTS) {
    using T = typename E::type;
    const std::size_t tile = ch05::kTileItems<T>;
    for (const auto& variant : ch05::Chapter::variants<T, typename E::op>())
      sg_test::check_misaligned(variant, {1, tile - 1, tile, 3 * tile + 17});
  }
}

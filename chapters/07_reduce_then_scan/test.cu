// Chapter 07 tests: every variant on the GPU, with sizes at the grid's edges (fewer tiles
// than blocks, exactly C tiles, one leftover tile) and at the l2 variants' chunk edges.
#include "07_reduce_then_scan/reduce_then_scan.cuh"
#include "07_reduce_then_scan/variants.cuh"
#include "tests/support/check_variant.cuh"

#include <vector>

TEST_CASE_TEMPLATE("07: the variant list is well-formed", E, SG_FULL_ARRAY_TEST_ELEMENTS) {
  sg_test::check_variant_list<ch07::Chapter, typename E::type, typename E::op>();
}

TEST_CASE("07: stripes are whole tiles, and a partial last tile ends the last stripe") {
  const std::size_t tile = ch07::kTileItems<int>;
  const std::size_t n = 10 * tile + 5;  // 11 tiles, the last one partial, over 4 blocks: 3, 3, 3, 2
  std::size_t covered = 0;
  for (unsigned b = 0; b < 4; ++b) {
    const ch01::Range r = ch01::even_share(n, tile, 4, b);
    CHECK(r.begin == covered);
    CHECK(r.begin % tile == 0);
    covered = r.end;
  }
  CHECK(covered == n);
  CHECK(ch01::even_share(n, tile, 4, 3).end - ch01::even_share(n, tile, 4, 3).begin == tile + 5);
}

TEST_SUITE("gpu") {
  TEST_CASE_TEMPLATE("07: every variant matches the CPU reference", E, SG_FULL_ARRAY_TEST_ELEMENTS) {
    sg_test::check_chapter<ch07::Chapter, typename E::type, typename E::op>(ch07::kTileItems<typename E::type>);
  }

  TEST_CASE_TEMPLATE("07: at the edges of the grid and of the l2 chunks", E, SG_FULL_ARRAY_TEST_ELEMENTS) {
    using T = typename E::type;
    using Op = typename E::op;
    const std::size_t tile = ch07::kTileItems<T>;
    const std::size_t blocks = ch07::grid_size<T, Op, ch07::kResident>(std::size_t{1} << 40);
    const std::size_t chunk = (std::size_t{8} << 20) / sizeof(T);
    const std::vector<std::size_t> sizes = {blocks * tile - 1, blocks * tile, blocks * tile + 1, 3 * blocks * tile + tile / 2,
                                            chunk - 1, chunk, chunk + 1, 3 * chunk + 7};
    for (const auto& variant : ch07::Chapter::variants<T, Op>()) {
      sg_test::check_random(variant, sizes);
      sg_test::check_one_hot(variant, blocks * tile + 1, {tile - 1, tile, blocks * tile});
      if (variant.name.rfind("l2_streaming/8MiB", 0) == 0) sg_test::check_one_hot(variant, 2 * chunk + 3, {chunk - 1, chunk, 2 * chunk + 2});
    }
  }

  TEST_CASE_TEMPLATE("07: misaligned arrays stay correct", E, SG_TEST_ELEMENTS) {
    using T = typename E::type;
    const std::size_t tile = ch07::kTileItems<T>;
    for (const auto& variant : ch07::Chapter::variants<T, typename E::op>())
      sg_test::check_misaligned(variant, {1, tile - 1, tile + 1, 3 * tile + 17});
  }
}

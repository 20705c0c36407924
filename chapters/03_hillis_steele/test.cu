// Chapter 03 tests: the Kogge-Stone arithmetic on the host; every block scan on the GPU.
#include "03_hillis_steele/kogge_stone.cuh"
#include "03_hillis_steele/variants.cuh"
#include "tests/support/check_variant.cuh"

TEST_CASE_TEMPLATE("03: the variant list is well-formed", E, SG_TEST_ELEMENTS) {
  sg_test::check_variant_list<ch03::Chapter, typename E::type, typename E::op>();
}

TEST_CASE("03: Kogge-Stone does n log n - (n - 1) additions in log n steps") {
  CHECK(ch03::kogge_stone_steps(8) == 3);
  CHECK(ch03::kogge_stone_additions(8) == 7 + 6 + 4);
  CHECK(ch03::kogge_stone_steps(1024) == 10);
  CHECK(ch03::kogge_stone_additions(1024) == 1024 * 10 - 1023);
  CHECK(ch03::kogge_stone_additions(1) == 0);
  static_assert(ch03::kReverseTile % ch03::kReverseItems == 0);
  static_assert(ch03::kBlockThreads / ch03::kWarpSize == ch03::kWarpSize, "warp_shuffle scans the warp totals with one warp");
}

TEST_SUITE("gpu") {
  TEST_CASE_TEMPLATE("03: every block scan matches the tile-wise CPU reference", E, SG_TEST_ELEMENTS) {
    sg_test::check_chapter<ch03::Chapter, typename E::type, typename E::op>(ch03::kBlockThreads);
  }
}

// Chapter 00 tests: every copy kernel and CUB scan matches the CPU reference.
#include "00_speed_of_light/copy.cuh"
#include "00_speed_of_light/variants.cuh"
#include "tests/support/check_variant.cuh"

TEST_CASE_TEMPLATE("00: the variant list is well-formed", E, SG_TEST_ELEMENTS) {
  sg_test::check_variant_list<ch00::Chapter, typename E::type, typename E::op>();
}

TEST_SUITE("gpu") {
  TEST_CASE_TEMPLATE("00: every copy and CUB scan matches the CPU reference", E, SG_TEST_ELEMENTS) {
    sg_test::check_chapter<ch00::Chapter, typename E::type, typename E::op>(ch00::kCopyThreads);
  }

  TEST_CASE_TEMPLATE("00: misaligned arrays take the scalar path and stay correct", E, SG_TEST_ELEMENTS) {
    for (const auto& variant : ch00::Chapter::variants<typename E::type, typename E::op>())
      sg_test::check_misaligned(variant, {1, 5, 1000, 100003});
  }
}

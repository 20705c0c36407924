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

  TEST_CASE("00: the vectorised copies fall back to scalar accesses when pointers are not 16-byte aligned") {
    const std::size_t n = 100003;
    const std::vector<int> input = sg::random_input<int>(n + 1, sg_test::seed());
    sg::DeviceBuffer<int> in(n + 1), out(n + 1);
    in.upload(input);
    const std::vector<int> expected_part(input.begin() + 1, input.end());
    for (auto copy : {ch00::copy_vectorised<int>, ch00::copy_vectorised_grid_stride<int>}) {
      sg::poison(out);
      copy(in.data() + 1, out.data() + 1, n, nullptr);  // 4 bytes past a 256-byte boundary
      SG_CUDA(cudaDeviceSynchronize());
      const std::vector<int> got = out.download();
      CHECK(sg::is_poison(got[0]));  // nothing written before the range
      const std::vector<int> got_part(got.begin() + 1, got.end());
      const sg::Validation result = sg::validate(got_part, sg::expected_output<int, sg::Sum>(sg::Computes::Copy, expected_part));
      CHECK_MESSAGE(result.ok(), result.summary());
    }
  }
}

// Chapter 05 tests: the tile geometry on the host; every move and geometry on the GPU.
#include "05_block_scan/tile_local.cuh"
#include "05_block_scan/variants.cuh"
#include "tests/support/check_variant.cuh"

TEST_CASE_TEMPLATE("05: the variant list is well-formed", E, SG_TEST_ELEMENTS) {
  sg_test::check_variant_list<ch05::Chapter, typename E::type, typename E::op>();
}

TEST_CASE("05: items per thread follow the bytes per thread, and vectors need whole 16-byte runs") {
  CHECK(ch05::kItemsPerThread<std::int32_t> == 16);
  CHECK(ch05::kItemsPerThread<std::int64_t> == 8);
  CHECK(ch05::kItemsPerThread<float, 16> == 4);
  CHECK(ch05::kItemsPerThread<std::int64_t, 4> == 1);  // never zero
  CHECK(ch05::kTileItems<std::int32_t> == 4096);
  CHECK(ch05::kVectorisable<std::int32_t, 4>);
  CHECK_FALSE(ch05::kVectorisable<std::int32_t, 2>);
  CHECK(ch05::kVectorisable<std::int64_t, 2>);
}

TEST_SUITE("gpu") {
  TEST_CASE_TEMPLATE("05: every tile move and geometry matches the tile-wise CPU reference", E, SG_TEST_ELEMENTS) {
    sg_test::check_chapter<ch05::Chapter, typename E::type, typename E::op>(ch05::kTileItems<typename E::type>);
  }

  TEST_CASE("05: unaligned arrays take the element-by-element path and stay correct") {
    const auto variants = ch05::Chapter::variants<std::int32_t, sg::Sum>();
    const std::size_t n = 3 * ch05::kTileItems<std::int32_t> + 17;
    const std::vector<std::int32_t> input = sg::random_input<std::int32_t>(n + 1, sg_test::seed());
    sg::DeviceBuffer<std::int32_t> in(n + 1), out(n + 1);
    in.upload(input);
    const std::vector<std::int32_t> shifted(input.begin() + 1, input.end());
    for (const auto& variant : variants) {
      sg::poison(out);
      variant.launch(in.data() + 1, out.data() + 1, n, nullptr);  // 4 bytes past an aligned address
      SG_CUDA(cudaDeviceSynchronize());
      const std::vector<std::int32_t> got = out.download();
      const sg::Validation result = sg::validate(std::vector<std::int32_t>(got.begin() + 1, got.end()),
                                                 sg::expected_output<std::int32_t, sg::Sum>(variant.computes, shifted, variant.tile));
      INFO(variant.name);
      CHECK_MESSAGE(result.ok(), result.summary());
      CHECK(sg::is_poison(got[0]));
    }
  }
}

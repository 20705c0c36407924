// Chapter 01 tests: every reduction matches the CPU reference for every size that breaks
// one (the shared support), plus this chapter's own traps: the partition of the fixed grid
// and the partials of the multi-pass launcher (host), unaligned and guarded inputs, the sizes
// where the number of launches or the fixed grid's shape changes, n above 2^31, and
// run-to-run determinism (GPU).
#include "01_reduction/fixed_grid.cuh"
#include "01_reduction/reduction.cuh"
#include "01_reduction/variants.cuh"
#include "tests/support/check_variant.cuh"

#include <cstring>
#include <limits>


// ---- host ---------------------------------------------------------------------------------

TEST_CASE_TEMPLATE("01: the variant list is well-formed", E, SG_TEST_ELEMENTS) {
  using T = typename E::type;
  using Op = typename E::op;
  sg_test::check_variant_list<ch01::Chapter, T, Op>();
  for (const sg::Variant<T, Op>& v : ch01::Chapter::variants<T, Op>()) {
    INFO(v.name);
    CHECK(v.computes == sg::Computes::Reduce);
    CHECK(v.tile == 0);
    CHECK(sg::predicted_ratio(v.model_bytes, std::size_t{1} << 26, sizeof(T)) == doctest::Approx(0.5).epsilon(1e-6));
  }
}

TEST_CASE("01: block_passes counts the launches of the block-per-tile variants") {
  constexpr std::size_t b = ch01::kTreeElementsPerBlock;
  static_assert(b == 512, "the README's launch counts assume 512 elements per block");
  CHECK(ch01::block_passes(0, b) == 1);  // one block writes the identity
  CHECK(ch01::block_passes(1, b) == 1);
  CHECK(ch01::block_passes(b, b) == 1);
  CHECK(ch01::block_passes(b + 1, b) == 2);
  CHECK(ch01::block_passes(b * b, b) == 2);
  CHECK(ch01::block_passes(b * b + 1, b) == 3);
  CHECK(ch01::block_passes(std::size_t{1} << 26, b) == 3);        // 2^17 -> 2^8 -> 1
  CHECK(ch01::block_passes((std::size_t{1} << 28) + 3, b) == 4);  // 524289 -> 1025 -> 3 -> 1
  CHECK(ch01::block_passes(std::size_t{1} << 40, b) == 5);
}

TEST_CASE("01: the partials of a multi-pass reduction fit their scratch regions") {
  constexpr std::size_t b = ch01::kTreeElementsPerBlock;
  for (std::size_t element_bytes : {4, 8}) {
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, b, b + 1, b * b, b * b + 1, std::size_t{1} << 26, (std::size_t{1} << 28) + 3,
                          std::size_t{1} << 40}) {
      INFO("n = ", n, ", element bytes ", element_bytes);
      const ch01::PartialsLayout layout = ch01::partials_layout(n, b, element_bytes);
      if (n <= b) {
        CHECK(layout.bytes == 0);  // one pass, straight into out
        continue;
      }
      // Replay the launcher: pass k writes region A (k odd) or B (k even) unless it is the last.
      const std::size_t capacity_a = layout.second_offset / element_bytes;
      const std::size_t capacity_b = (layout.bytes - layout.second_offset) / element_bytes;
      CHECK(layout.second_offset % 256 == 0);
      std::size_t count = n;
      for (int pass = 1;; ++pass) {
        const std::size_t blocks = (count + b - 1) / b;
        if (blocks == 1) break;
        CHECK(blocks <= (pass % 2 == 1 ? capacity_a : capacity_b));
        count = blocks;
      }
    }
  }
}

TEST_CASE_TEMPLATE("01: split_into_vectors: a short head to the 16-byte boundary, whole vectors, a short tail", T, std::int32_t,
                   std::int64_t, float) {
  constexpr std::size_t per_vector = ch01::Vector16<T>::kCount;
  alignas(16) static T storage[128];
  for (std::size_t offset = 0; offset < per_vector; ++offset) {  // the array's own misalignment
    const T* in = storage + offset;
    for (std::size_t begin = 0; begin < 12; ++begin) {
      for (std::size_t end = begin; end < 100; ++end) {
        INFO("offset ", offset, ", [", begin, ", ", end, ")");
        const ch01::VectorSplit split = ch01::split_into_vectors(in, begin, end);
        REQUIRE(begin <= split.body_begin);
        REQUIRE(split.body_begin <= split.tail_begin);
        REQUIRE(split.tail_begin <= end);
        CHECK(split.tail_begin - split.body_begin == split.vectors * per_vector);
        CHECK(split.body_begin - begin < per_vector);  // the head fits in one element per thread
        CHECK(end - split.tail_begin < per_vector);    // and so does the tail
        if (split.vectors > 0) CHECK(reinterpret_cast<std::uintptr_t>(in + split.body_begin) % 16 == 0);
        // the head is as short as it can be: it stops at the first boundary or at the end
        if (split.body_begin > begin && split.body_begin < end) CHECK(reinterpret_cast<std::uintptr_t>(in + split.body_begin) % 16 == 0);
      }
    }
  }
}

TEST_CASE("01: even_share covers [0, n) in order, in whole granules, balanced") {
  for (std::size_t granule : {std::size_t{512}, std::size_t{1024}}) {
    for (unsigned blocks : {1u, 2u, 7u, 1056u, 1320u}) {
      for (std::size_t n : {std::size_t{0}, std::size_t{1}, granule - 1, granule, granule + 1, 3 * granule + 5,
                            std::size_t{blocks} * granule - 1, std::size_t{blocks} * granule + 1, std::size_t{1} << 26,
                            (std::size_t{1} << 28) + 3, (std::size_t{1} << 40) + 17}) {
        INFO("n = ", n, ", granule ", granule, ", blocks ", blocks);
        std::size_t expected_begin = 0, smallest = n, largest = 0;
        for (unsigned block = 0; block < blocks; ++block) {
          const ch01::Range r = ch01::even_share(n, granule, blocks, block);
          REQUIRE(r.begin == expected_begin);
          REQUIRE(r.begin <= r.end);
          CHECK((r.begin % granule == 0 || r.begin == n));
          expected_begin = r.end;
          if (r.end < n) {  // every share but the one holding the partial last granule
            smallest = std::min(smallest, r.end - r.begin);
            largest = std::max(largest, r.end - r.begin);
          }
        }
        CHECK(expected_begin == n);
        if (largest > 0) CHECK(largest - smallest <= granule);
      }
    }
  }
}

// ---- GPU ----------------------------------------------------------------------------------

TEST_SUITE("gpu") {
  TEST_CASE_TEMPLATE("01: every reduction matches the CPU reference", E, SG_TEST_ELEMENTS) {
    sg_test::check_chapter<ch01::Chapter, typename E::type, typename E::op>(ch01::kTreeElementsPerBlock);
  }

  TEST_CASE_TEMPLATE("01: unaligned inputs, and nothing read outside [0, n)", E, SG_TEST_ELEMENTS) {
    using T = typename E::type;
    const std::size_t granule = ch01::fixed_grid_granule<T>();
    for (const auto& variant : ch01::Chapter::variants<T, typename E::op>())
      sg_test::check_misaligned(variant, {1, 2, 3, 5, 1000, granule + 3, 3 * granule + 7, 1000003});
  }

  TEST_CASE_TEMPLATE("01: the sizes where the fixed grid changes shape", E, SG_TEST_ELEMENTS) {
    using T = typename E::type;
    using Op = typename E::op;
    const std::size_t g = ch01::fixed_grid_granule<T>();
    const std::size_t c = ch01::fixed_grid_blocks<T, Op>(std::size_t{1} << 40);  // the resident grid
    MESSAGE("fixed grid: ", c, " resident blocks, granule ", g, " elements");
    CHECK(ch01::fixed_grid_blocks<T, Op>(0) == 1);
    CHECK(ch01::fixed_grid_blocks<T, Op>(g) == 1);
    CHECK(ch01::fixed_grid_blocks<T, Op>(g + 1) == 2);
    const sg::Variant<T, Op> variant = ch01::Chapter::variants<T, Op>().back();
    REQUIRE(variant.name == "fixed_grid_vectorised");
    // one launch or two; one granule per block or more; every block with equal shares or not
    sg_test::check_random(variant, {g - 1, g, g + 1, 2 * g - 1, (c - 1) * g + 1, c * g - 1, c * g, c * g + 1, 2 * c * g + 7,
                                    5 * c * g + 3 * g + 11});
    // one-hot on the first and last element of a few blocks' shares
    const std::size_t n = 3 * c * g + 5 * g + 3;
    std::vector<std::size_t> positions = {0, n - 1};
    for (unsigned block : {1u, static_cast<unsigned>(c / 2), static_cast<unsigned>(c - 1)}) {
      const ch01::Range r = ch01::even_share(n, g, static_cast<unsigned>(c), block);
      positions.insert(positions.end(), {r.begin - 1, r.begin, r.end - 1});
    }
    sg_test::check_one_hot(variant, n, positions);
  }

  TEST_CASE_TEMPLATE("01: the sizes where the block-per-tile variants add a pass", E, SG_TEST_ELEMENTS) {
    using T = typename E::type;
    using Op = typename E::op;
    constexpr std::size_t b = ch01::kTreeElementsPerBlock;
    for (const sg::Variant<T, Op>& variant : ch01::Chapter::variants<T, Op>()) {
      if (variant.name == "fixed_grid_vectorised") continue;
      sg_test::check_random(variant, {b * b - 1, b * b, b * b + 1, b * b + b + 1});
      sg_test::check_one_hot(variant, b * b + b + 1, {b * b - 1, b * b, b * b + b});  // in the last block of pass 1 and 2
    }
  }

  TEST_CASE("01: n above 2^31 (size_t indices everywhere)") {
    const std::size_t n = (std::size_t{1} << 31) + 17;
    std::size_t free_bytes = 0, total_bytes = 0;
    SG_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
    const std::size_t needed = n * sizeof(std::int32_t) + (std::size_t{1} << 30);
    if (!sg_test::full_depth() || !sg_test::large_sizes_enabled()) {
      MESSAGE("skipping n = 2^31 + 17: a full-depth case (SG_TEST_FULL=1, the test-all preset), left out with SG_TEST_SKIP_LARGE=1 too");
      return;
    }
    if (needed > free_bytes) {
      MESSAGE("skipping n = 2^31 + 17: needs ", needed >> 20, " MiB, ", free_bytes >> 20, " MiB free");
      return;
    }
    // zeros, with 3 at 2^31 - 1 (the last int index), 9 at 2^31 + 3 and 7 at n - 1: sum 19, max 9
    sg::DeviceBuffer<std::int32_t> in(n), out(1);
    SG_CUDA(cudaMemset(in.data(), 0, in.bytes()));
    const std::pair<std::size_t, std::int32_t> hot[] = {{(std::size_t{1} << 31) - 1, 3}, {(std::size_t{1} << 31) + 3, 9}, {n - 1, 7}};
    for (const auto& [index, value] : hot) SG_CUDA(cudaMemcpy(in.data() + index, &value, sizeof(value), cudaMemcpyHostToDevice));
    auto check = [&](const auto& variants, std::int32_t expected) {
      for (const auto& variant : variants) {
        sg::poison(out);
        variant.launch(in.data(), out.data(), n, nullptr);
        SG_CUDA(cudaDeviceSynchronize());
        INFO(variant.name);
        CHECK(out.download()[0] == expected);
      }
    };
    check(ch01::Chapter::variants<std::int32_t, sg::Sum>(), 19);
    check(ch01::Chapter::variants<std::int32_t, sg::Max>(), 9);
  }

  TEST_CASE("01: float sums are the same bits on every run (no atomics, a fixed order)") {
    const std::size_t n = (std::size_t{3} << 20) + 1;
    const std::vector<float> input = sg::random_input<float>(n, sg_test::seed());
    sg::DeviceBuffer<float> in(n), out(1);
    in.upload(input);
    for (const sg::Variant<float, sg::Sum>& variant : ch01::Chapter::variants<float, sg::Sum>()) {
      float first = 0.0f;
      for (int run = 0; run < 5; ++run) {
        sg::poison(out);
        variant.launch(in.data(), out.data(), n, nullptr);
        SG_CUDA(cudaDeviceSynchronize());
        const float got = out.download()[0];
        if (run == 0) first = got;
        INFO(variant.name, ", run ", run);
        CHECK(std::memcmp(&got, &first, sizeof(float)) == 0);
      }
    }
  }
}

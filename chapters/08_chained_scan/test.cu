// Chapter 08 tests: the packed word on the host; every variant on the GPU (the default
// checks, plus repeated scans, since a race may need many tries); the forward-progress demo:
// the reversed order must be caught by the watchdog, never hang, and the ticket must work.
#include "08_chained_scan/chained_scan.cuh"
#include "08_chained_scan/demos.cuh"
#include "08_chained_scan/variants.cuh"
#include "tests/support/check_variant.cuh"

#include <cstring>

TEST_CASE_TEMPLATE("08: the variant list is well-formed", E, SG_FULL_ARRAY_TEST_ELEMENTS) {
  sg_test::check_variant_list<ch08::Chapter, typename E::type, typename E::op>();
}

TEST_CASE("08: a packed word keeps the status and every bit of the value") {
  const auto word32 = ch08::pack(ch08::kInclusive, -5);
  CHECK(ch08::status_bits_of<int>(word32) == ch08::kInclusive);
  CHECK(ch08::value_of<int>(word32) == -5);
  const auto word_float = ch08::pack(ch08::kAggregate, -0.0f);
  const float back = ch08::value_of<float>(word_float);
  CHECK(std::signbit(back));
  const auto word64 = ch08::pack(ch08::kInclusive, -(std::int64_t{1} << 40));
  CHECK(ch08::status_bits_of<std::int64_t>(word64) == ch08::kInclusive);
  CHECK(ch08::value_of<std::int64_t>(word64) == -(std::int64_t{1} << 40));
  CHECK(ch08::pack(ch08::kInvalid, 0) == 0ull);  // a zeroed word is X
  static_assert(sizeof(ch08::PackedWord<float>) == 8 && sizeof(ch08::PackedWord<double>) == 16);
}

TEST_SUITE("gpu") {
  TEST_CASE_TEMPLATE("08: every variant matches the CPU reference", E, SG_FULL_ARRAY_TEST_ELEMENTS) {
    using T = typename E::type;
    sg_test::check_chapter<ch08::Chapter, T, typename E::op>(ch08::kTileItems<T, ch08::kDefaultThreads, ch08::kDefaultBytesPerThread>);
  }

  TEST_CASE("08: many scans in a row, fresh data each time (int32 sum)") {
    using T = std::int32_t;
    const std::size_t tile = ch08::kTileItems<T, ch08::kDefaultThreads, ch08::kDefaultBytesPerThread>;
    for (const auto& variant : ch08::Chapter::variants<T, sg::Sum>())
      for (std::size_t n : {tile + 1, 97 * tile - 3, std::size_t{5000003}})
        for (int run = 0; run < sg_test::repetitions(5, 20); ++run) {
          const sg::Validation result = sg_test::run_and_validate(variant, sg::random_input<T, sg::Sum>(n, sg_test::seed() + run * n), 1);
          INFO(variant.name, ", n = ", n, ", run ", run, ", seed ", sg_test::seed());
          REQUIRE_MESSAGE(result.ok(), result.summary());
        }
  }

  TEST_CASE("08: misaligned arrays stay correct") {
    for (const auto& variant : ch08::Chapter::variants<std::int32_t, sg::Sum>()) sg_test::check_misaligned(variant, {1, 8191, 8193, 30017});
    for (const auto& variant : ch08::Chapter::variants<std::int64_t, sg::Max>()) sg_test::check_misaligned(variant, {1, 4097, 30017});
  }

  TEST_CASE("08: a deadlock is caught by the watchdog and named; the ticket order finishes") {
    const ch08::ProgressDemo demo = ch08::forward_progress_demo(200, sg_test::seed());
    INFO("tiles ", demo.tiles, ", resident blocks ", demo.resident, ", reversed order: ", demo.reversed);
    CHECK(demo.ticket_correct);
    // The reversed order deadlocks on a scheduler that starts blocks in index order (all
    // NVIDIA GPUs so far); either way the launch must have ended, which it has if we are here.
    if (!demo.reversed.empty()) CHECK(demo.reversed.find("stuck wait: tile") != std::string::npos);
    else MESSAGE("this GPU started the blocks in an order that let the reversed tiles through");
  }
}

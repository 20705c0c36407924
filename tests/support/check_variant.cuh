// tests/support/check_variant.cuh - the checks every chapter's GPU tests are built from.
//
//   sg_test::check_variant(variant, /*boundary=*/1024);
//
// runs a variant on random inputs at the sizes that break scans (0, 1, 31, 32, 33, both
// sides of the tile or block boundary, non-powers of two, and one large size), on one-hot
// inputs whose single non-identity element sits on a boundary, and compares every output
// element with the CPU reference. Each run starts from a poisoned output (and poisoned
// guard elements past its end, which must stay untouched) and is repeated, so unwritten
// elements, writes past the end and state left behind by the previous launch all show; a
// wait between blocks that gave up (watchdog.cuh) fails the check with the stuck tile named.
#pragma once

#include "common/device_buffer.cuh"
#include "common/device_info.cuh"
#include "common/inputs.hpp"
#include "common/reference.hpp"
#include "common/validate.hpp"
#include "common/variant.cuh"
#include "common/watchdog.cuh"
#include "tests/support/seed.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <type_traits>
#include <set>
#include <string>
#include <vector>

namespace sg_test {

// Two depths. Quick (the default: `cmake --workflow --preset test`) keeps the sizes that
// break scans - 0, 1, 31, 32, 33, both sides of the first tile or block boundary and of the
// second, a few odd sizes - and one large size above the L2 cache. Full (SG_TEST_FULL=1, which
// the test-all preset sets) adds the third boundary, more odd sizes, the 2^28 size and more
// repetitions. Both run every variant, element type and operator.
inline bool full_depth() {
  const char* full = std::getenv("SG_TEST_FULL");
  return full != nullptr && full[0] == '1';
}

// A count of repetitions: `full` at full depth, `quick` otherwise.
inline int repetitions(int quick, int full) { return full_depth() ? full : quick; }

// Small sizes that break scans, plus both sides of the tile or block boundaries, plus a few
// sizes that are neither powers of two nor multiples of anything.
inline std::vector<std::size_t> sizes_around(std::size_t boundary) {
  std::set<std::size_t> sizes = {0, 1, 2, 31, 32, 33, 1000, 65537};
  const std::size_t boundaries = full_depth() ? 3 : 2;
  for (std::size_t k = 1; k <= boundaries; ++k) {
    sizes.insert(k * boundary - 1);
    sizes.insert(k * boundary);
    sizes.insert(k * boundary + 1);
  }
  if (full_depth()) sizes.insert({4099, 1000003, (std::size_t{3} << 20) + 1});
  return {sizes.begin(), sizes.end()};
}

// The large size: far beyond the L2 cache (50 MB on an H100, 60 MB on an H200), so every
// multi-level path and many waves of tiles run. Full depth: 2^28 + 3 elements (over 1 GiB of
// int32); quick: 2^25 + 3 (128 MiB of int32). SG_TEST_SKIP_LARGE=1 leaves it out.
inline bool large_sizes_enabled() {
  const char* skip = std::getenv("SG_TEST_SKIP_LARGE");
  return skip == nullptr || skip[0] != '1';
}
inline std::size_t large_size() { return (std::size_t{1} << (full_depth() ? 28 : 25)) + 3; }

// Elements past the end of the output that are poisoned too and must stay poisoned: a
// kernel that writes beyond out[n - 1] (a last partial tile, a padded tree) fails here.
inline constexpr std::size_t kGuardElements = 1024;

template <typename T, typename Op>
sg::Validation run_and_validate(const sg::Variant<T, Op>& variant, const std::vector<T>& input, int runs = 2) {
  const sg::Expected<T> expected = sg::expected_output<T, Op>(variant.computes, input, variant.tile);
  const std::size_t written = expected.values.size();
  sg::DeviceBuffer<T> in(input.size());
  sg::DeviceBuffer<T> out(written + kGuardElements);
  in.upload(input);
  sg::Validation result;
  for (int run = 0; run < runs && result.ok(); ++run) {
    sg::poison(out);
    variant.launch(in.data(), out.data(), input.size(), nullptr);
    SG_CUDA(cudaDeviceSynchronize());
    const std::vector<T> got = out.download();
    result = sg::validate(std::vector<T>(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(written)), expected);
    result.error = sg::stuck_wait_report();
    for (std::size_t i = written; i < got.size() && result.ok(); ++i) {
      if (sg::is_poison(got[i])) continue;
      result.mismatches = 1;
      result.first_index = i;
      result.first_expected = "untouched (past the end of the output)";
      result.first_got = sg::value_text(got[i]);
    }
  }
  return result;
}

template <typename T, typename Op>
void check_input(const sg::Variant<T, Op>& variant, const std::vector<T>& input, const std::string& description) {
  const sg::Validation result = run_and_validate(variant, input);
  INFO(variant.name, " (", sg::type_name<T>(), " ", Op::name, ") on ", description, ", seed ", seed());
  CHECK_MESSAGE(result.ok(), result.summary());
}

template <typename T, typename Op>
void check_random(const sg::Variant<T, Op>& variant, const std::vector<std::size_t>& sizes) {
  for (std::size_t n : sizes) {
    if (n > variant.max_n) continue;
    check_input(variant, sg::random_input<T, Op>(n, seed() + n), "random input, n = " + std::to_string(n));
  }
}

// One-hot inputs: the only non-identity element at each of `positions` in an array of n.
template <typename T, typename Op>
void check_one_hot(const sg::Variant<T, Op>& variant, std::size_t n, const std::vector<std::size_t>& positions) {
  if (n > variant.max_n) return;
  for (std::size_t p : positions) {
    if (p >= n) continue;
    check_input(variant, sg::one_hot_input<T, Op>(n, p),
                "one-hot input, n = " + std::to_string(n) + ", hot at " + std::to_string(p));
  }
}

// A value that spoils the result if a kernel reads it: far above any Sum input, and above
// every Max input.
template <typename T, typename Op>
T spoiler() {
  if constexpr (std::is_same_v<Op, sg::Max>) return std::numeric_limits<T>::max();
  else return T(1000003);
}

// Runs a variant with its input `in_offset` and its output `out_offset` elements past an
// aligned (cudaMalloc'd) address, with spoiler values around the input and poisoned cells
// around the output: checks the fallback paths of vectorised kernels (and, with two different
// offsets, of kernels that copy whole aligned runs), and that nothing outside [0, n) is read
// or written.
template <typename T, typename Op>
void check_offsets(const sg::Variant<T, Op>& variant, std::size_t n, std::size_t in_offset, std::size_t out_offset) {
  constexpr std::size_t kAround = 64;
  const std::vector<T> input = sg::random_input<T, Op>(n, seed() + n + in_offset + 17 * out_offset);
  const sg::Expected<T> expected = sg::expected_output<T, Op>(variant.computes, input, variant.tile);
  const std::size_t written = expected.values.size();
  std::vector<T> padded(in_offset + n + kAround, spoiler<T, Op>());
  std::copy(input.begin(), input.end(), padded.begin() + static_cast<std::ptrdiff_t>(in_offset));
  sg::DeviceBuffer<T> in(padded.size()), out(out_offset + written + kAround);
  in.upload(padded);
  sg::poison(out);
  variant.launch(in.data() + in_offset, out.data() + out_offset, n, nullptr);
  SG_CUDA(cudaDeviceSynchronize());
  const std::vector<T> got = out.download();
  const auto first = got.begin() + static_cast<std::ptrdiff_t>(out_offset);
  sg::Validation result = sg::validate(std::vector<T>(first, first + static_cast<std::ptrdiff_t>(written)), expected);
  result.error = sg::stuck_wait_report();
  std::size_t outside = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    if ((i < out_offset || i >= out_offset + written) && !sg::is_poison(got[i])) ++outside;
  INFO(variant.name, " (", sg::type_name<T>(), " ", Op::name, "), n = ", n, ", input ", in_offset * sizeof(T), " and output ",
       out_offset * sizeof(T), " bytes past an aligned address, seed ", seed());
  CHECK_MESSAGE(result.ok(), result.summary());
  CHECK_MESSAGE(outside == 0, outside, " elements outside the output were written");
}

template <typename T, typename Op>
void check_misaligned(const sg::Variant<T, Op>& variant, std::size_t n, std::size_t offset) {
  check_offsets(variant, n, offset, offset);
}

// Every misalignment a T* can have relative to 16 bytes, at a few sizes.
template <typename T, typename Op>
void check_misaligned(const sg::Variant<T, Op>& variant, const std::vector<std::size_t>& sizes) {
  for (std::size_t offset = 1; offset < 16 / sizeof(T); ++offset)
    for (std::size_t n : sizes)
      if (n <= variant.max_n) check_misaligned(variant, n, offset);
}

// Runs `variant` `runs` times over the sizes, one launch after another on fresh inputs, and
// stops at the first wrong result: state a launch leaves behind (status words never cleared, a
// ticket that resets itself) must not spoil the next one.
template <typename T, typename Op>
void check_repeated(const sg::Variant<T, Op>& variant, const std::vector<std::size_t>& sizes, int runs) {
  for (int run = 0; run < runs; ++run)
    for (std::size_t n : sizes) {
      const sg::Validation result = run_and_validate(variant, sg::random_input<T, Op>(n, seed() + 7919 * run + n), 1);
      INFO(variant.name, ", n = ", n, ", run ", run, ", seed ", seed());
      REQUIRE_MESSAGE(result.ok(), result.summary());
    }
}

// Random inputs around `boundary` (the variant's tile or block size), one-hot inputs on the
// first boundaries, and for int32 sums the large size.
template <typename T, typename Op>
void check_variant(const sg::Variant<T, Op>& variant, std::size_t boundary) {
  check_random(variant, sizes_around(boundary));
  const std::size_t n = 3 * boundary + 5;
  check_one_hot(variant, n, {0, 1, boundary - 1, boundary, boundary + 1, 2 * boundary - 1, 2 * boundary, n - 1});
  if (std::is_same_v<T, std::int32_t> && std::is_same_v<Op, sg::Sum> && large_sizes_enabled() && large_size() <= variant.max_n) {
    std::size_t free_bytes = 0, total_bytes = 0;
    SG_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
    const std::size_t large = large_size();
    const std::size_t needed = 2 * large * sizeof(T) + variant.scratch_for(large) + (std::size_t{512} << 20);
    if (needed > free_bytes) {
      MESSAGE("skipping n = ", large, " for ", variant.name, ": needs ", needed >> 20, " MiB, ", free_bytes >> 20, " MiB free");
      return;
    }
    check_random(variant, {large});
  }
}

// Every variant of a chapter, for one element type and operator.
template <typename Chapter, typename T, typename Op>
void check_chapter(std::size_t default_boundary) {
  for (const sg::Variant<T, Op>& variant : Chapter::template variants<T, Op>())
    check_variant(variant, variant.tile != 0 ? variant.tile : default_boundary);
}

// The element types and operators every chapter is tested with, for TEST_CASE_TEMPLATE:
//   TEST_CASE_TEMPLATE("...", E, SG_TEST_ELEMENTS) { check_chapter<Chapter, typename E::type, typename E::op>(...); }
template <typename T, typename Op>
struct Elements {
  using type = T;
  using op = Op;
};
#define SG_TEST_ELEMENTS                                                                                    \
  sg_test::Elements<std::int32_t, sg::Sum>, sg_test::Elements<float, sg::Sum>, sg_test::Elements<std::int64_t, sg::Sum>, \
      sg_test::Elements<std::int32_t, sg::Max>, sg_test::Elements<float, sg::Max>, sg_test::Elements<std::int64_t, sg::Max>

// The full-array chapters add the non-commutative operator (operators.hpp): a kernel that
// combines two pieces of the array out of order passes every Sum and Max test and fails this.
#define SG_FULL_ARRAY_TEST_ELEMENTS SG_TEST_ELEMENTS, sg_test::Elements<std::int64_t, sg::AffineCompose>

// Host-side sanity of a chapter's list, for every type and operator: names unique and
// non-empty, launchers and models present, tiles and limits sensible.
template <typename Chapter, typename T, typename Op>
void check_variant_list() {
  const auto variants = Chapter::template variants<T, Op>();
  CHECK(!variants.empty());
  std::set<std::string> names;
  for (const sg::Variant<T, Op>& v : variants) {
    INFO(Chapter::id, " variant '", v.name, "'");
    CHECK(!v.name.empty());
    CHECK(names.insert(v.name).second);
    CHECK(static_cast<bool>(v.launch));
    CHECK(static_cast<bool>(v.model_bytes));
    CHECK(v.max_n > 0);
    // a model never predicts fewer bytes than the operation must move
    CHECK(v.model_bytes(std::size_t{1} << 26, sizeof(T)) >= sg::must_move_bytes(v.computes, std::size_t{1} << 26, sizeof(T)));
  }
}

}  // namespace sg_test

TYPE_TO_STRING_AS("int32 sum", sg_test::Elements<std::int32_t, sg::Sum>);
TYPE_TO_STRING_AS("float sum", sg_test::Elements<float, sg::Sum>);
TYPE_TO_STRING_AS("int64 sum", sg_test::Elements<std::int64_t, sg::Sum>);
TYPE_TO_STRING_AS("int32 max", sg_test::Elements<std::int32_t, sg::Max>);
TYPE_TO_STRING_AS("float max", sg_test::Elements<float, sg::Max>);
TYPE_TO_STRING_AS("int64 max", sg_test::Elements<std::int64_t, sg::Max>);
TYPE_TO_STRING_AS("int64 affine (non-commutative)", sg_test::Elements<std::int64_t, sg::AffineCompose>);

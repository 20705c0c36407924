// Host tests: the CPU references every chapter is checked against.
#include "common/reference.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

using sg::Max;
using sg::Sum;

TEST_CASE("reference: the slides' example, inclusive and exclusive") {
  const std::vector<int> in = {3, 1, 7, 0, 4, 1, 6, 3};
  CHECK(sg::reference_inclusive_scan(in, Sum{}) == std::vector<int>{3, 4, 11, 11, 15, 16, 22, 25});
  CHECK(sg::reference_exclusive_scan(in, Sum{}) == std::vector<int>{0, 3, 4, 11, 11, 15, 16, 22});
  CHECK(sg::reference_reduce(in, Sum{}) == 25);
}

TEST_CASE("reference: max has identity lowest(), and the exclusive scan starts with it") {
  const std::vector<int> in = {-5, 2, -9, 7, 1};
  CHECK(sg::reference_inclusive_scan(in, Max{}) == std::vector<int>{-5, 2, 2, 7, 7});
  const std::vector<int> exclusive = sg::reference_exclusive_scan(in, Max{});
  CHECK(exclusive[0] == std::numeric_limits<int>::lowest());
  CHECK(exclusive[4] == 7);
  CHECK(sg::reference_reduce(in, Max{}) == 7);
  CHECK(sg::reference_reduce(std::vector<int>{}, Max{}) == std::numeric_limits<int>::lowest());
}

TEST_CASE("reference: empty and single-element inputs") {
  CHECK(sg::reference_inclusive_scan(std::vector<int>{}, Sum{}).empty());
  CHECK(sg::reference_exclusive_scan(std::vector<int>{42}, Sum{}) == std::vector<int>{0});
  CHECK(sg::reference_inclusive_scan(std::vector<int>{42}, Sum{}) == std::vector<int>{42});
  CHECK(sg::reference_reduce(std::vector<int>{}, Sum{}) == 0);
}

TEST_CASE("reference: tile-local scans restart at every tile boundary") {
  const std::vector<int> in = {1, 2, 3, 4, 5, 6, 7};
  CHECK(sg::reference_inclusive_scan(in, Sum{}, 3) == std::vector<int>{1, 3, 6, 4, 9, 15, 7});
  CHECK(sg::reference_exclusive_scan(in, Sum{}, 3) == std::vector<int>{0, 1, 3, 0, 4, 9, 0});
  CHECK(sg::reference_inclusive_scan(in, Sum{}, 0) == sg::reference_inclusive_scan(in, Sum{}));
}

TEST_CASE("reference: floats accumulate in double") {
  // 2^24 + 1 is not a float: a float accumulator would lose the final 1
  std::vector<float> in(3, 0.0f);
  in[0] = 16777216.0f;
  in[1] = 1.0f;
  in[2] = 1.0f;
  const std::vector<double> out = sg::reference_inclusive_scan(in, Sum{});
  CHECK(out[2] == 16777218.0);
  static_assert(std::is_same_v<sg::reference_t<float>, double>);
  static_assert(std::is_same_v<sg::reference_t<std::int64_t>, std::int64_t>);
}

TEST_CASE("reference: expected_output carries magnitudes only for float sums") {
  const std::vector<float> in = {1.0f, -2.0f, 3.0f};
  const sg::Expected<float> sum = sg::expected_output<float, Sum>(sg::Computes::InclusiveScan, in);
  CHECK(sum.values == std::vector<double>{1.0, -1.0, 2.0});
  CHECK(sum.magnitude == std::vector<double>{1.0, 3.0, 6.0});
  CHECK(sg::expected_output<float, Max>(sg::Computes::InclusiveScan, in).magnitude.empty());
  CHECK(sg::expected_output<float, Sum>(sg::Computes::Copy, in).magnitude.empty());
  CHECK(sg::expected_output<int, Sum>(sg::Computes::Reduce, std::vector<int>{1, 2, 3}).values == std::vector<int>{6});
}

TEST_CASE("reference: the identity is the element type's, also when accumulating in double") {
  const std::vector<float> in = {1.0f, 2.0f};
  const std::vector<double> exclusive = sg::reference_exclusive_scan(in, Max{});
  CHECK(exclusive[0] == static_cast<double>(std::numeric_limits<float>::lowest()));
  CHECK(sg::reference_reduce(std::vector<float>{}, Max{}) == static_cast<double>(std::numeric_limits<float>::lowest()));
  CHECK(sg::reference_inclusive_scan(std::vector<float>{}, Max{}).empty());
}

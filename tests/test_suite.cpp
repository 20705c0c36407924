// Host tests: the 2,022-size problem suite (suite.hpp) and the non-commutative operator.
#include "common/operators.hpp"
#include "common/reference.hpp"
#include "common/suite.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <vector>

TEST_CASE("suite: 2,022 sizes in [2^5, 2^26.75], the 22 powers of two among them") {
  const std::vector<std::size_t> sizes = sg::problem_suite(42);
  CHECK(sizes.size() == 2022);
  CHECK(*std::min_element(sizes.begin(), sizes.end()) >= 32);
  CHECK(*std::max_element(sizes.begin(), sizes.end()) <= sg::suite_largest());
  for (int k = 5; k <= 26; ++k) CHECK(std::count(sizes.begin(), sizes.end(), std::size_t{1} << k) >= 1);
  CHECK(std::set<std::size_t>(sizes.begin(), sizes.end()).size() > 1900);  // few repeats
}

TEST_CASE("suite: the same seed gives the same sizes, another seed others, in a shuffled order") {
  CHECK(sg::problem_suite(7) == sg::problem_suite(7));
  CHECK(sg::problem_suite(7) != sg::problem_suite(8));
  const std::vector<std::size_t> sizes = sg::problem_suite(7);
  CHECK_FALSE(std::is_sorted(sizes.begin(), sizes.end()));
}

TEST_CASE("suite: the uniform half covers the range evenly, the log-normal half the middle exponents") {
  const std::vector<std::size_t> sizes = sg::problem_suite(3);
  const double top = std::exp2(sg::kSuiteHighExponent);
  std::size_t upper_half = 0, exponent_10_to_22 = 0;
  for (std::size_t n : sizes) {
    if (static_cast<double>(n) > top / 2) ++upper_half;
    const double e = std::log2(static_cast<double>(n));
    if (e >= 10 && e <= 22) ++exponent_10_to_22;
  }
  CHECK(upper_half > 400);         // about half of the 1,000 uniform sizes
  CHECK(upper_half < 600);
  CHECK(exponent_10_to_22 > 700);  // most of the log-normal ones (and a few uniform ones)
}

TEST_CASE("operators: affine composition is associative, not commutative, with identity x -> x") {
  const sg::AffineCompose op;
  auto map = [](std::uint32_t a, std::uint32_t b) { return static_cast<std::int64_t>((std::uint64_t{a} << 32) | b); };
  const std::int64_t f = map(3, 5), g = map(7, 11), h = map(9, 2);
  CHECK(op(op(f, g), h) == op(f, op(g, h)));
  CHECK(op(f, g) != op(g, f));
  CHECK(op(f, g) == map(21, 7 * 5 + 11));  // x -> 7 (3x + 5) + 11
  const std::int64_t id = sg::AffineCompose::identity<std::int64_t>();
  CHECK(op(id, f) == f);
  CHECK(op(f, id) == f);
  // a scan of maps applied to 0 solves y_i = a_i y_(i-1) + b_i
  const std::vector<std::int64_t> maps = {map(2, 1), map(3, 4), map(5, 6)};
  const std::vector<std::int64_t> scanned = sg::reference_inclusive_scan(maps, op);
  CHECK(static_cast<std::uint32_t>(scanned[2]) == 5u * (3u * (2u * 0u + 1u) + 4u) + 6u);
}

// Host tests: the 2,022-size problem suite (suite.hpp), its exact float inputs (inputs.hpp)
// and the non-commutative operator.
#include "common/inputs.hpp"
#include "common/operators.hpp"
#include "common/reference.hpp"
#include "common/suite.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
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

TEST_CASE("suite inputs: exact float sums are the integers [-4, 4], mean 0; integer and max inputs stay as they are") {
  const std::vector<float> values = sg::random_input<float, sg::Sum, sg::Draw::Exact>(1 << 20, 11);
  std::vector<std::size_t> count(2 * sg::kExactStep + 1);
  double sum = 0;
  std::size_t outside = 0;  // not an integer in [-4, 4]
  for (float x : values) {
    if (x != std::round(x) || std::abs(x) > sg::kExactStep) {
      ++outside;
      continue;
    }
    ++count[static_cast<std::size_t>(x + sg::kExactStep)];
    sum += x;
  }
  REQUIRE(outside == 0);
  for (std::size_t c : count) CHECK(c > values.size() / 10);  // each of the 9 values: about 1/9 of them
  CHECK(std::abs(sum / static_cast<double>(values.size())) < 0.02);
  CHECK(values != sg::random_input<float, sg::Sum, sg::Draw::Exact>(1 << 20, 12));
  // the same draw on the device: random_value is the one definition both use
  CHECK(values[12345] == sg::random_value<float, sg::Sum, sg::Draw::Exact>(11, 12345));

  CHECK(sg::random_input<std::int32_t, sg::Sum, sg::Draw::Exact>(1000, 5) == sg::random_input<std::int32_t, sg::Sum>(1000, 5));
  CHECK(sg::random_input<std::int64_t, sg::Max, sg::Draw::Exact>(1000, 5) == sg::random_input<std::int64_t, sg::Max>(1000, 5));
  CHECK(sg::random_input<float, sg::Max, sg::Draw::Exact>(1000, 5) == sg::random_input<float, sg::Max>(1000, 5));
  const std::vector<float> maxima = sg::random_input<float, sg::Max, sg::Draw::Exact>(1 << 16, 5);
  CHECK(std::none_of(maxima.begin(), maxima.end(), [](float x) { return std::isnan(x); }));
}

TEST_CASE("suite inputs: exact float sums give the same bits in every order, far inside the bound") {
  CHECK(sg::exact_prefix_bound<float>() == 0x1.0p22f);
  CHECK(2.0 * sg::exact_prefix_bound<float>() + sg::kExactStep <= 0x1.0p24);
  CHECK(sg::exact_prefix_bound<double>() == 0x1.0p51);

  const std::size_t n = (std::size_t{1} << 22) + 3;
  const std::vector<float> x = sg::random_input<float, sg::Sum, sg::Draw::Exact>(n, 2024);
  std::vector<float> scan(n);  // accumulated in float, left to right
  sg::sequential_inclusive_scan(x.data(), scan.data(), n, sg::Sum{});
  const std::vector<double> exact = sg::reference_inclusive_scan(x, sg::Sum{});  // in double
  std::size_t rounded = 0;
  float largest = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (static_cast<double>(scan[i]) != exact[i]) ++rounded;
    largest = std::max(largest, std::abs(scan[i]));
  }
  CHECK(rounded == 0);
  // a random walk: about 2.58 sqrt(n) = 5,300 here, nowhere near 2^22
  CHECK(largest < sg::exact_prefix_bound<float>() / 64);

  // any association order: a balanced tree, and right to left, give the same float total
  const std::function<float(std::size_t, std::size_t)> tree = [&](std::size_t begin, std::size_t end) -> float {
    return end - begin == 1 ? x[begin] : tree(begin, begin + (end - begin) / 2) + tree(begin + (end - begin) / 2, end);
  };
  float right_to_left = 0;
  for (std::size_t i = n; i-- > 0;) right_to_left += x[i];
  CHECK(tree(0, n) == scan[n - 1]);
  CHECK(right_to_left == scan[n - 1]);
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

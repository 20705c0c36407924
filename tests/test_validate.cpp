// Host tests: the validator (exact integers, scaled float tolerance, NaN, poison).
#include "common/validate.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

using sg::Computes;
using sg::Sum;

TEST_CASE("validate: exact integers report count, first index, expected and got") {
  const std::vector<int> in = {3, 1, 7, 0, 4};
  const sg::Expected<int> expected = sg::expected_output<int, Sum>(Computes::InclusiveScan, in);
  CHECK(sg::validate(std::vector<int>{3, 4, 11, 11, 15}, expected).ok());

  const sg::Validation bad = sg::validate(std::vector<int>{3, 4, 10, 11, 14}, expected);
  CHECK_FALSE(bad.ok());
  CHECK(bad.mismatches == 2);
  CHECK(bad.first_index == 2);
  CHECK(bad.first_expected == "11");
  CHECK(bad.first_got == "10");
  CHECK(bad.summary().find("2 of 5 elements wrong") != std::string::npos);
}

TEST_CASE("validate: poisoned elements are reported as never written") {
  const std::vector<int> in = {1, 2, 3};
  const sg::Expected<int> expected = sg::expected_output<int, Sum>(Computes::InclusiveScan, in);
  const sg::Validation result = sg::validate(std::vector<int>{1, 3, sg::poison_value<int>()}, expected);
  CHECK(result.mismatches == 1);
  CHECK(result.unwritten == 1);
  CHECK(result.first_got.find("never written") != std::string::npos);
}

TEST_CASE("validate: a length mismatch is a failure, not a crash") {
  const sg::Expected<int> expected = sg::expected_output<int, Sum>(Computes::InclusiveScan, std::vector<int>{1, 2});
  CHECK_FALSE(sg::validate(std::vector<int>{1}, expected).ok());
}

TEST_CASE("validate: float tolerance scales with magnitude and n") {
  CHECK(sg::float_tolerance<float>(0.0, 1000) == 0.0);
  CHECK(sg::float_tolerance<float>(2.0, 1000) == doctest::Approx(2 * sg::float_tolerance<float>(1.0, 1000)));
  CHECK(sg::float_tolerance<float>(1.0, 1u << 20) > sg::float_tolerance<float>(1.0, 1u << 10));
  CHECK(sg::float_tolerance<double>(1.0, 1000) < sg::float_tolerance<float>(1.0, 1000));

  std::vector<float> in(1000, 0.5f);
  for (std::size_t i = 0; i < in.size(); i += 2) in[i] = -0.25f;
  const sg::Expected<float> expected = sg::expected_output<float, Sum>(Computes::InclusiveScan, in);
  std::vector<float> got(in.size());
  for (std::size_t i = 0; i < got.size(); ++i) got[i] = static_cast<float>(expected.values[i]);

  const double tolerance_last = sg::float_tolerance<float>(expected.magnitude.back(), in.size());
  got.back() = static_cast<float>(expected.values.back() + 0.5 * tolerance_last);  // inside: accepted
  CHECK(sg::validate(got, expected).ok());
  got.back() = static_cast<float>(expected.values.back() + 0.5);  // a lost element: rejected
  CHECK_FALSE(sg::validate(got, expected).ok());
}

TEST_CASE("validate: NaN never passes a tolerance, but NaN in gives NaN out") {
  const std::vector<float> in = {1.0f, 2.0f};
  const sg::Expected<float> expected = sg::expected_output<float, Sum>(Computes::InclusiveScan, in);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK_FALSE(sg::validate(std::vector<float>{1.0f, nan}, expected).ok());
  CHECK_FALSE(sg::validate(std::vector<float>{nan, 3.0f}, expected).ok());
  CHECK_FALSE(sg::validate(std::vector<float>{1.0f, std::numeric_limits<float>::infinity()}, expected).ok());

  const std::vector<float> nan_in = {1.0f, nan};
  const sg::Expected<float> nan_expected = sg::expected_output<float, Sum>(Computes::InclusiveScan, nan_in);
  CHECK(sg::validate(std::vector<float>{1.0f, nan}, nan_expected).ok());
  CHECK_FALSE(sg::validate(std::vector<float>{1.0f, 1.0f}, nan_expected).ok());
}

TEST_CASE("validate: the float poison is a NaN and is reported as never written") {
  CHECK(std::isnan(sg::poison_value<float>()));
  CHECK(std::isnan(sg::poison_value<double>()));
  const sg::Expected<float> expected = sg::expected_output<float, Sum>(Computes::InclusiveScan, std::vector<float>{1.0f});
  const sg::Validation result = sg::validate(std::vector<float>{sg::poison_value<float>()}, expected);
  CHECK(result.unwritten == 1);
}

TEST_CASE("validate: max is exact even for floats") {
  const std::vector<float> in = {0.1f, 0.3f, 0.2f};
  const sg::Expected<float> expected = sg::expected_output<float, sg::Max>(Computes::InclusiveScan, in);
  CHECK(sg::validate(std::vector<float>{0.1f, 0.3f, 0.3f}, expected).ok());
  CHECK_FALSE(sg::validate(std::vector<float>{0.1f, 0.3f, std::nextafter(0.3f, 1.0f)}, expected).ok());
}

TEST_CASE("validate: a run-level error (a wait that gave up) fails the validation and is its summary") {
  sg::Validation result;
  result.checked = 10;
  CHECK(result.ok());
  result.error = "stuck wait: tile 3 waited 2000 ms for tile 2 and gave up";
  CHECK_FALSE(result.ok());
  CHECK(result.summary() == result.error);
}

// common/validate.hpp - compare a kernel's output with the reference, element by element.
//
// Integers must match exactly. Floating-point sums are accepted within
//
//     tolerance_i = eps(T) * (2 * log2(n) + 32) * magnitude_i,   magnitude_i = sum of |x_j| it combines
//
// because any summation order whose depth is d rounds by at most about d * eps * magnitude:
// a tree over n elements is log2(n) deep, the down-sweep or carry propagation adds another
// log2(n), and a thread's serial run over its own items adds up to 32. The comparison is
// written `!(error <= tolerance)` so that a NaN (e.g. a float output never written: the
// poison is a NaN) is always a mismatch.
#pragma once

#include "common/inputs.hpp"
#include "common/reference.hpp"

#include <cmath>
#include <cstddef>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace sg {

struct Validation {
  std::size_t checked = 0;
  std::size_t mismatches = 0;
  std::size_t unwritten = 0;  // mismatches that still hold the poison pattern
  std::size_t first_index = 0;
  std::string first_expected, first_got;
  std::string error;  // a failure of the run itself (a wait that gave up), not of an element

  bool ok() const { return mismatches == 0 && error.empty(); }
  std::string summary() const {
    if (!error.empty()) return error;
    if (ok()) return "ok (" + std::to_string(checked) + " elements)";
    std::ostringstream text;
    text << mismatches << " of " << checked << " elements wrong";
    if (unwritten > 0) text << " (" << unwritten << " never written)";
    text << "; first at index " << first_index << ": expected " << first_expected << ", got " << first_got;
    return text.str();
  }
};

template <typename T>
double float_tolerance(double magnitude, std::size_t n) {
  const double depth = 2.0 * std::log2(static_cast<double>(n < 2 ? 2 : n)) + 32.0;
  return std::numeric_limits<T>::epsilon() * depth * magnitude;
}

template <typename V>
std::string value_text(const V& value) {
  std::ostringstream text;
  if constexpr (std::is_floating_point_v<V>) text.precision(std::numeric_limits<V>::max_digits10);
  text << +value;  // unary + prints 8-bit integers as numbers
  return text.str();
}

template <typename T>
bool element_matches(const T& got, const reference_t<T>& expected, const Expected<T>& reference, std::size_t i) {
  if constexpr (std::is_floating_point_v<T>) {
    const double g = static_cast<double>(got);
    if (g == expected) return true;                              // exact, and equal infinities
    if (std::isnan(g) && std::isnan(expected)) return true;      // NaN in, NaN out
    if (reference.magnitude.empty()) return false;               // exact comparison wanted
    const double error = std::fabs(g - expected);
    const bool mismatch = !(error <= float_tolerance<T>(reference.magnitude[i], reference.n));  // NaN: mismatch
    return !mismatch;
  } else {
    (void)reference;
    (void)i;
    return got == expected;
  }
}

template <typename T>
Validation validate(const T* got, std::size_t count, const Expected<T>& expected) {
  Validation result;
  result.checked = expected.values.size();
  if (count != expected.values.size()) {
    result.mismatches = 1;
    result.first_expected = std::to_string(expected.values.size()) + " elements";
    result.first_got = std::to_string(count) + " elements";
    return result;
  }
  for (std::size_t i = 0; i < count; ++i) {
    if (element_matches(got[i], expected.values[i], expected, i)) continue;
    if (result.mismatches == 0) {
      result.first_index = i;
      result.first_expected = value_text(expected.values[i]);
      result.first_got = value_text(got[i]) + (is_poison(got[i]) ? " (poison: never written)" : "");
    }
    ++result.mismatches;
    if (is_poison(got[i])) ++result.unwritten;
  }
  return result;
}

template <typename T>
Validation validate(const std::vector<T>& got, const Expected<T>& expected) {
  return validate(got.data(), got.size(), expected);
}

}  // namespace sg

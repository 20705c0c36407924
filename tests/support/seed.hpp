// tests/support/seed.hpp - one input seed per test run: fresh each time, printed by the
// test main, and fixed with SG_TEST_SEED=<n> to repeat a failing run exactly.
#pragma once

#include "common/inputs.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

namespace sg_test {

inline std::uint64_t seed() {
  static const std::uint64_t value = [] {
    const char* fixed = std::getenv("SG_TEST_SEED");
    return fixed != nullptr ? std::strtoull(fixed, nullptr, 10) : sg::fresh_seed();
  }();
  return value;
}

}  // namespace sg_test

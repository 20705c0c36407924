// common/suite.hpp - the 2,022-size problem suite of Merrill & Grimshaw (2009, section 5.1).
//
// A scan that is right at 2^20 and 2^26 can still be wrong at 2^20 + 3 or at the one size
// where the last tile holds a single element, and its speed can collapse at sizes that
// leave a few blocks in a last wave. So the full-array chapters are run over many sizes,
// the suite Merrill & Grimshaw measured their scans with:
//
//   1,000 sizes drawn uniformly from [2^5, 2^26.75]
//   1,000 sizes drawn log-normally (base 2) from the same range: log2(n) is normal with
//         its mean in the middle of [5, 26.75] and 6 standard deviations across it
//         (redrawn when it falls outside), so small and middle sizes are well covered
//     22 powers of two, 2^5 .. 2^26
//
// drawn from a seed (printed by every run), in a shuffled order, so that a large scan is
// often followed by a small one: state a kernel leaves behind shows up. The report's
// paper does not give its log-normal parameters; the ones above are this gallery's.
//
//   ./build/bin/06_scan_then_propagate --n suite --no-timing    validate every size
//   ./build/bin/06_scan_then_propagate --n suite --csv          time every size (plots)
#pragma once

#include "common/inputs.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sg {

inline constexpr int kSuiteUniform = 1000;
inline constexpr int kSuiteLogNormal = 1000;
inline constexpr int kSuiteLowExponent = 5;
inline constexpr int kSuiteHighPowerOfTwo = 26;
inline constexpr double kSuiteHighExponent = 26.75;
inline constexpr int kSuiteSize = kSuiteUniform + kSuiteLogNormal + (kSuiteHighPowerOfTwo - kSuiteLowExponent + 1);  // 2,022

// A uniform double in [0, 1) from the counter-based hash: draw k of stream `stream`.
inline double suite_uniform(std::uint64_t seed, std::uint64_t stream, std::uint64_t k) {
  return static_cast<double>(hash64(hash64(seed ^ (stream << 56)) + k) >> 11) * 0x1.0p-53;
}

inline std::size_t suite_largest() { return static_cast<std::size_t>(std::floor(std::exp2(kSuiteHighExponent))); }

inline std::vector<std::size_t> problem_suite(std::uint64_t seed) {
  const double low = std::exp2(kSuiteLowExponent), high = std::exp2(kSuiteHighExponent);
  std::vector<std::size_t> sizes;
  sizes.reserve(kSuiteSize);
  for (int i = 0; i < kSuiteUniform; ++i)
    sizes.push_back(static_cast<std::size_t>(low + suite_uniform(seed, 1, i) * (high - low)));

  const double mean = 0.5 * (kSuiteLowExponent + kSuiteHighExponent);
  const double deviation = (kSuiteHighExponent - kSuiteLowExponent) / 6.0;
  std::uint64_t draw = 0;
  while (static_cast<int>(sizes.size()) < kSuiteUniform + kSuiteLogNormal) {
    // Box-Muller: two uniforms -> one standard normal
    const double u1 = 1.0 - suite_uniform(seed, 2, draw++), u2 = suite_uniform(seed, 2, draw++);
    const double normal = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * 3.14159265358979323846 * u2);
    const double exponent = mean + deviation * normal;
    if (exponent < kSuiteLowExponent || exponent > kSuiteHighExponent) continue;
    sizes.push_back(static_cast<std::size_t>(std::exp2(exponent)));
  }
  for (int k = kSuiteLowExponent; k <= kSuiteHighPowerOfTwo; ++k) sizes.push_back(std::size_t{1} << k);

  // Fisher-Yates with the same hash: a fixed order for a given seed
  for (std::size_t i = sizes.size() - 1; i > 0; --i) {
    const std::size_t j = static_cast<std::size_t>(hash64(hash64(seed ^ 0x5u) + i) % (i + 1));
    std::swap(sizes[i], sizes[j]);
  }
  return sizes;
}

inline bool is_power_of_two(std::size_t n) { return n != 0 && (n & (n - 1)) == 0; }

}  // namespace sg

// Chapter 02 - global-memory scans: launch counts and traffic models (host code, tested in
// test.cu). Every kernel of this chapter reads and writes global memory only, so each
// variant's cost is "how many launches" times "how many bytes each launch moves".
//
// Assumptions of the models, stated once before measuring (the README compares them with
// an H200's profile, and keeps these predictions as they were made):
//   1. DRAM moves 32-byte sectors. A launch that touches one element in a sector pays for
//      the whole sector, read and (if it writes it) written back. (Measured: writes follow
//      this; sparse up-sweep levels *read* 64 bytes per touched sector, twice the model.)
//   2. Nothing survives in L2 from one launch to the next: at the sizes the models are
//      meant for (n = 2^26 int32 is 256 MiB; the L2 is 50 MB on an H100, 60 MiB on an
//      H200) the previous launch's data has long been evicted. Small sparse levels of the
//      Blelloch tree do stay in L2, but they are a geometric tail of a few percent.
//   3. Inside one launch, an element read a short while ago is still in L2. The naive
//      Hillis-Steele step reads x[i] and x[i - d]; x[i - d] was read as "x[i]" by a thread
//      d elements earlier, so it is an L2 hit while d * e <= kL2ReuseBytes and a second
//      DRAM read after that. 16 MiB was chosen as about a third of an H100's L2 (the step
//      streams reads and writes through the cache at once, and replacement is not a
//      perfect LRU). (Measured on an H200: the reuse distance lies between 8 and 16 MiB;
//      the d = 2^22 step, 16 MiB back, already reads again from DRAM.)
//   4. Implicitly: every byte moves at a copy's speed. This is the assumption that failed:
//      one 4-byte access per thread, many small launches and millions of idle blocks keep
//      DRAM far from busy (README, "Predicted against measured").
#pragma once

#include <algorithm>
#include <cstddef>

namespace ch02 {

inline constexpr double kSectorBytes = 32.0;
inline constexpr double kL2ReuseBytes = 16.0 * 1024.0 * 1024.0;

// ceil(log2(n)) for n >= 1: 1 -> 0, 2 -> 1, 3 -> 2, 4 -> 2, 5 -> 3.
inline int ceil_log2(std::size_t n) {
  int k = 0;
  while (k < 63 && (std::size_t{1} << k) < n) ++k;
  return k;
}

// ---- naive Hillis-Steele: one launch per step d = 1, 2, 4, ... < n --------------------------
// n = 1 needs no step but still one launch, to write out[0]; n = 0 launches nothing.
inline std::size_t hillis_steele_launches(std::size_t n) {
  return n == 0 ? 0 : static_cast<std::size_t>(std::max(1, ceil_log2(n)));
}

// Each step reads x[i] and writes y[i] for all n (2n elements through DRAM); the second
// operand x[i - d] costs another (n - d) elements from DRAM once d is too far back for L2.
// Inclusive and exclusive move the same bytes (the exclusive first step reads x[i - 1]).
inline double hillis_steele_bytes(std::size_t n, std::size_t e) {
  const double element = static_cast<double>(e);
  double bytes = 0.0;
  for (std::size_t step = 0; step < hillis_steele_launches(n); ++step) {
    const std::size_t distance = std::size_t{1} << step;
    bytes += 2.0 * static_cast<double>(n) * element;
    if (static_cast<double>(distance) * element > kL2ReuseBytes && distance < n)
      bytes += static_cast<double>(n - distance) * element;
  }
  return bytes;
}

// ---- Blelloch over global memory: pad to N = 2^L, L up-sweep + L down-sweep levels ------------
// The tree needs a power of two: N = next power of two >= max(n, 2) (n = 1 is padded to 2 so
// that the tree has a root level; see blelloch_global.cuh).
inline int blelloch_levels(std::size_t n) { return ceil_log2(std::max<std::size_t>(n, 2)); }
inline std::size_t blelloch_padded_size(std::size_t n) { return std::size_t{1} << blelloch_levels(n); }

// pad (1) + up-sweep (L) + down-sweep (L) + final pass (1).
inline std::size_t blelloch_launches(std::size_t n) {
  return n == 0 ? 0 : 2 * static_cast<std::size_t>(blelloch_levels(n)) + 2;
}

// Bytes of the sectors touched by `count` elements, one every `spacing` elements: every
// sector of the range while they are closer than a sector, one whole sector each after that.
inline double strided_bytes(std::size_t count, std::size_t spacing, std::size_t e) {
  return static_cast<double>(count) * std::min(static_cast<double>(spacing) * static_cast<double>(e), kSectorBytes);
}

// One level of the tree over N elements: `nodes` = N / 2^(level+1) pairs (left, right)
// with left = right - 2^level. Both children are read (2 * nodes elements, 2^level apart);
// the up-sweep writes the right child, the down-sweep writes both.
inline double up_sweep_level_bytes(std::size_t padded, int level, std::size_t e) {
  const std::size_t stride = std::size_t{1} << level;
  const std::size_t nodes = padded >> (level + 1);
  return strided_bytes(2 * nodes, stride, e) + strided_bytes(nodes, 2 * stride, e);
}
inline double down_sweep_level_bytes(std::size_t padded, int level, std::size_t e) {
  const std::size_t stride = std::size_t{1} << level;
  const std::size_t nodes = padded >> (level + 1);
  return 2.0 * strided_bytes(2 * nodes, stride, e);
}

// pad: read n, write N | up- and down-sweep levels | final: read the tree's first n
// elements, write n. The inclusive final pass also reads x: n more.
inline double blelloch_exclusive_bytes(std::size_t n, std::size_t e) {
  if (n == 0) return 0.0;
  const std::size_t padded = blelloch_padded_size(n);
  const double n_bytes = static_cast<double>(n) * static_cast<double>(e);
  double bytes = n_bytes + static_cast<double>(padded) * static_cast<double>(e);
  for (int level = 0; level < blelloch_levels(n); ++level)
    bytes += up_sweep_level_bytes(padded, level, e) + down_sweep_level_bytes(padded, level, e);
  return bytes + 2.0 * n_bytes;
}
inline double blelloch_inclusive_bytes(std::size_t n, std::size_t e) {
  return blelloch_exclusive_bytes(n, e) + static_cast<double>(n) * static_cast<double>(e);
}

}  // namespace ch02

// common/inputs.hpp - seeded inputs, one-hot inputs and the poison pattern.
//
// Inputs are never all ones or all zeros: those hide an off-by-one carry (every prefix of
// ones is just its index). Random values come from a counter-based hash of (seed, index),
// so a failing case is reproduced exactly by its printed seed, at any size.
//
//   Sum inputs: small signed integers in [-100, 100] (floats: uniform in [-1, 1)), so
//     int32 prefix sums of even 2^31 elements stay far from overflow.
//   Max inputs: a rising trend plus noise, so the running maximum keeps changing all the
//     way through the array (plain noise would saturate after a few hundred elements and
//     then hide any error).
//   AffineCompose inputs: random maps with an odd multiplier (an even one would make the
//     products collapse to 0 after 32 of them).
//
// hash64 and random_value run on the device too: the 2,022-size suite (suite.hpp) draws its
// inputs on the GPU, the same values the CPU would draw for the same seed.
#pragma once

#include "common/operators.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <type_traits>
#include <vector>

namespace sg {

// SplitMix64 finaliser: a good 64-bit mix of the counter, cheap enough for 2^31 values.
SG_HOST_DEVICE inline std::uint64_t hash64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// A fresh seed for every run unless one is given; the programs and tests print it.
inline std::uint64_t fresh_seed() {
  return hash64(static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count())) % 1000000007ull;
}

template <typename T, typename Op = Sum>
SG_HOST_DEVICE T random_value(std::uint64_t seed, std::size_t index) {
  const std::uint64_t bits = hash64(seed * 0x2545F4914F6CDD1Dull ^ hash64(index));
  if constexpr (std::is_same_v<Op, AffineCompose>) {
    return static_cast<T>(bits | (std::uint64_t{1} << 32));  // a odd, b anything
  } else if constexpr (std::is_same_v<Op, Max>) {
    // trend of one unit per 4 elements, noise in [-1000, 1000]
    const std::int64_t noise = static_cast<std::int64_t>(bits % 2001) - 1000;
    return static_cast<T>(static_cast<std::int64_t>(index / 4) + noise);
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(static_cast<double>(bits >> 11) * 0x1.0p-52 - 1.0);  // [-1, 1)
  } else {
    return static_cast<T>(static_cast<std::int64_t>(bits % 201) - 100);  // [-100, 100]
  }
}

template <typename T, typename Op = Sum>
std::vector<T> random_input(std::size_t n, std::uint64_t seed) {
  std::vector<T> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = random_value<T, Op>(seed, i);
  return values;
}

// The identity everywhere except one position: the prefix changes exactly once, at
// `position`, so a carry lost or double-counted across a tile boundary shows at once.
template <typename T, typename Op = Sum>
std::vector<T> one_hot_input(std::size_t n, std::size_t position, T value = T(7)) {
  std::vector<T> values(n, Op::template identity<T>());
  if (position < n) values[position] = value;
  return values;
}

// Every output buffer is filled with this byte before a kernel runs. For integers the
// word 0xA5A5A5A5 (-1515870811) is far outside what our inputs can produce; for floats
// 0xFF bytes are a NaN, which no tolerance accepts.
template <typename T>
constexpr unsigned char poison_byte() {
  return std::is_floating_point_v<T> ? 0xFF : 0xA5;
}

template <typename T>
T poison_value() {
  T value;
  unsigned char* bytes = reinterpret_cast<unsigned char*>(&value);
  for (std::size_t i = 0; i < sizeof(T); ++i) bytes[i] = poison_byte<T>();
  return value;
}

}  // namespace sg

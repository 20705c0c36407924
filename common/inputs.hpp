// common/inputs.hpp - seeded inputs, one-hot inputs and the poison pattern.
//
// Inputs are never all ones or all zeros: those hide an off-by-one carry (every prefix of
// ones is just its index). Random values come from a counter-based hash of (seed, index),
// so a failing case is reproduced exactly by its printed seed, at any size.
//
//   Sum inputs: small signed integers in [-100, 100] (floats: uniform in [-1, 1), or with
//     Draw::Exact the integers [-4, 4], below), so int32 prefix sums of even 2^31 elements
//     stay far from overflow.
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
#include <limits>
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

// Float sums drawn so that every check of them can be exact (Draw::Exact: the 2,022-size
// suite, which compares every output with CUB's on the GPU with ==): integers in [-4, 4].
//
// Why exact: a scan only ever adds neighbouring runs, so every partial sum it forms, in any
// association order, is x_i + ... + x_j = P(j) - P(i-1), a difference of two inclusive
// prefixes (P(-1) = 0). A float holds every integer of magnitude up to 2^24, so adding two
// such integers is exact whenever their true sum is one too. So while every |P| is at most
// exact_prefix_bound = 2^22, every partial sum is an integer of magnitude at most 2^23, each
// addition is exact, and every correct scan (CUB's too) gives the same bits.
//
// Is |P| <= 2^22 guaranteed? Not by the range alone: 4n reaches 2^28.75 at the suite's
// largest n. But with mean 0, P is a random walk: its standard deviation at n = 2^26.75 is
// 2.58 sqrt(n), about 27,000, and 2^22 lies 150 of those away. So it holds in practice, and
// the suite does not merely hope: it checks every input it draws (CUB's largest |P|,
// device_oracle.cuh) and stops with a harness error if the bound is ever exceeded. (A
// reduction may also add elements that are not neighbours, x_t + x_(t + stride) + ...: a
// fixed subset, again a zero-mean walk, which by Hoeffding's inequality reaches 2^24 with
// probability below 2 e^-65536: certain in practice, but not checked.)
//
// Integer sums and every max (which only ever picks one of its operands) are exact already:
// for them both draws give the same values.
enum class Draw { Random, Exact };
inline constexpr int kExactStep = 4;  // Draw::Exact float sums: integers in [-kExactStep, kExactStep]

template <typename T>
constexpr T exact_prefix_bound() {
  return static_cast<T>(std::uint64_t{1} << (std::numeric_limits<T>::digits - 2));  // 2^22 for float
}
// the check's argument (DeviceOracle::largest_prefix_sum) needs sums up to 2 bound + one step exact
static_assert(2.0 * exact_prefix_bound<float>() + kExactStep <= 0x1.0p24, "exact float sums need partial sums <= 2^24");

template <typename T, typename Op = Sum, Draw draw = Draw::Random>
SG_HOST_DEVICE T random_value(std::uint64_t seed, std::size_t index) {
  const std::uint64_t bits = hash64(seed * 0x2545F4914F6CDD1Dull ^ hash64(index));
  if constexpr (std::is_same_v<Op, AffineCompose>) {
    return static_cast<T>(bits | (std::uint64_t{1} << 32));  // a odd, b anything
  } else if constexpr (std::is_same_v<Op, Max>) {
    // trend of one unit per 4 elements, noise in [-1000, 1000]
    const std::int64_t noise = static_cast<std::int64_t>(bits % 2001) - 1000;
    return static_cast<T>(static_cast<std::int64_t>(index / 4) + noise);
  } else if constexpr (std::is_floating_point_v<T> && draw == Draw::Exact) {
    return static_cast<T>(static_cast<int>(bits % (2 * kExactStep + 1)) - kExactStep);  // [-4, 4]
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(static_cast<double>(bits >> 11) * 0x1.0p-52 - 1.0);  // [-1, 1)
  } else {
    return static_cast<T>(static_cast<std::int64_t>(bits % 201) - 100);  // [-100, 100]
  }
}

template <typename T, typename Op = Sum, Draw draw = Draw::Random>
std::vector<T> random_input(std::size_t n, std::uint64_t seed) {
  std::vector<T> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = random_value<T, Op, draw>(seed, i);
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

// Whether value still holds the poison, byte by byte (the float poison is a NaN, which == never
// matches): the host's validation (validate.hpp) and the GPU's comparison (device_oracle.cuh).
template <typename T>
SG_HOST_DEVICE bool is_poison(const T& value) {
  const unsigned char* bytes = reinterpret_cast<const unsigned char*>(&value);
  for (std::size_t b = 0; b < sizeof(T); ++b)
    if (bytes[b] != poison_byte<T>()) return false;
  return true;
}

template <typename T>
T poison_value() {
  T value;
  unsigned char* bytes = reinterpret_cast<unsigned char*>(&value);
  for (std::size_t i = 0; i < sizeof(T); ++i) bytes[i] = poison_byte<T>();
  return value;
}

}  // namespace sg

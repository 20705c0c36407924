// common/reference.hpp - what every kernel is checked against: plain sequential loops.
//
// The CPU reference is the O(n) work-efficient algorithm every parallel scan is measured
// against: one pass, one operator application per element. Float inputs are accumulated
// in double, so the reference is (much) more precise than any float kernel.
//
// "Tile-local" scans restart at every `tile` elements (each block scans its own tile, no
// carry between tiles): the block-level chapters are checked with tile > 0.
#pragma once

#include "common/operators.hpp"

#include <cmath>
#include <cstddef>
#include <type_traits>
#include <vector>

namespace sg {

// What a launcher computes. The validator and the traffic model both key on it.
enum class Computes { Copy, Reduce, InclusiveScan, ExclusiveScan };

inline const char* computes_name(Computes what) {
  switch (what) {
    case Computes::Copy: return "copy";
    case Computes::Reduce: return "reduce";
    case Computes::InclusiveScan: return "inclusive scan";
    case Computes::ExclusiveScan: return "exclusive scan";
  }
  return "?";
}

// The type the reference accumulates in: double for floating point, T itself otherwise.
template <typename T>
using reference_t = std::conditional_t<std::is_floating_point_v<T>, double, T>;

// The sequential scans themselves: one pass, accumulating in the output's type.
// The identity is the input type's (Max's identity for float is -FLT_MAX, not -DBL_MAX).
template <typename In, typename Out, typename Op>
void sequential_inclusive_scan(const In* in, Out* out, std::size_t n, Op op, std::size_t tile = 0) {
  const Out identity = static_cast<Out>(Op::template identity<In>());
  Out running = identity;
  for (std::size_t i = 0; i < n; ++i) {
    if (tile != 0 && i % tile == 0) running = identity;
    running = op(running, static_cast<Out>(in[i]));
    out[i] = running;
  }
}

template <typename In, typename Out, typename Op>
void sequential_exclusive_scan(const In* in, Out* out, std::size_t n, Op op, std::size_t tile = 0) {
  const Out identity = static_cast<Out>(Op::template identity<In>());
  Out running = identity;
  for (std::size_t i = 0; i < n; ++i) {
    if (tile != 0 && i % tile == 0) running = identity;
    out[i] = running;
    running = op(running, static_cast<Out>(in[i]));
  }
}

template <typename T, typename Op>
std::vector<reference_t<T>> reference_inclusive_scan(const std::vector<T>& in, Op op, std::size_t tile = 0) {
  std::vector<reference_t<T>> out(in.size());
  sequential_inclusive_scan(in.data(), out.data(), in.size(), op, tile);
  return out;
}

template <typename T, typename Op>
std::vector<reference_t<T>> reference_exclusive_scan(const std::vector<T>& in, Op op, std::size_t tile = 0) {
  std::vector<reference_t<T>> out(in.size());
  sequential_exclusive_scan(in.data(), out.data(), in.size(), op, tile);
  return out;
}

template <typename T, typename Op>
reference_t<T> reference_reduce(const std::vector<T>& in, Op op) {
  using R = reference_t<T>;
  R total = static_cast<R>(Op::template identity<T>());
  for (const T& x : in) total = op(total, static_cast<R>(x));
  return total;
}

// The expected output of a launcher, plus what the float tolerance needs: for every
// output element, the sum of |x| over the inputs it combines (its "magnitude").
template <typename T>
struct Expected {
  std::vector<reference_t<T>> values;
  std::vector<double> magnitude;  // empty when the comparison is exact
  std::size_t n = 0;              // input length: rounding error grows with the tree depth
};

template <typename T, typename Op>
std::vector<reference_t<T>> reference_output(Computes what, const std::vector<T>& in, std::size_t tile = 0) {
  const Op op{};
  switch (what) {
    case Computes::Copy: return std::vector<reference_t<T>>(in.begin(), in.end());
    case Computes::Reduce: return {reference_reduce(in, op)};
    case Computes::InclusiveScan: return reference_inclusive_scan(in, op, tile);
    case Computes::ExclusiveScan: return reference_exclusive_scan(in, op, tile);
  }
  return {};
}

template <typename T, typename Op>
Expected<T> expected_output(Computes what, const std::vector<T>& in, std::size_t tile = 0) {
  Expected<T> expected;
  expected.n = in.size();
  expected.values = reference_output<T, Op>(what, in, tile);
  // Only floating-point sums round; max picks one of its inputs and a copy moves bits.
  if constexpr (std::is_floating_point_v<T>) {
    if (std::is_same_v<Op, Sum> && what != Computes::Copy) {
      std::vector<T> absolute(in.size());
      for (std::size_t i = 0; i < in.size(); ++i) absolute[i] = std::fabs(in[i]);
      expected.magnitude = reference_output<T, Sum>(what, absolute, tile);
    }
  }
  return expected;
}

}  // namespace sg

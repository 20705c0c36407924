// common/operators.hpp - the binary operators a scan is taught with.
//
// A scan needs an associative operator with an identity. Sum is the prefix sum; Max is
// the second operator every chapter is checked with where its structure allows, because
// it has no inverse: a kernel that quietly relies on subtraction (exclusive = inclusive - x)
// is right for Sum and wrong for Max. Both are commutative, so neither notices a kernel that
// combines two pieces in the wrong order; AffineCompose (below) does, and the full-array
// chapters (06 on) are tested with it.
#pragma once

#include <cstdint>
#include <limits>

#if defined(__CUDACC__)
#define SG_HOST_DEVICE __host__ __device__
#else
#define SG_HOST_DEVICE
#endif

namespace sg {

struct Sum {
  static constexpr const char* name = "sum";
  template <typename T>
  SG_HOST_DEVICE T operator()(const T& a, const T& b) const { return a + b; }
  template <typename T>
  SG_HOST_DEVICE static constexpr T identity() { return T(0); }
};

struct Max {
  static constexpr const char* name = "max";
  template <typename T>
  SG_HOST_DEVICE T operator()(const T& a, const T& b) const { return a < b ? b : a; }
  template <typename T>
  SG_HOST_DEVICE static constexpr T identity() { return std::numeric_limits<T>::lowest(); }
};

// Composition of affine maps f(x) = a x + b (mod 2^32), one map per 64-bit element, packed
// as (a << 32) | b. op(f, g) = "f, then g": x -> a_g (a_f x + b_f) + b_g, so
//
//   op(f, g) = (a_g a_f, a_g b_f + b_g)       identity x -> x = (1, 0)
//
// Associative (composing functions is), but not commutative: "f then g" is not "g then f".
// A kernel that combines a prefix with an element as op(element, prefix), or joins two
// pieces of the array out of order, gets a different answer. It is also what scans are for:
// the inclusive scan of maps (a_i, b_i) applied to y_0 = 0 gives every term of the linear
// recurrence y_i = a_i y_(i-1) + b_i at once. Elements must be 64-bit integers.
struct AffineCompose {
  static constexpr const char* name = "affine";
  template <typename T>
  SG_HOST_DEVICE T operator()(const T& f, const T& g) const {
    static_assert(sizeof(T) == 8, "AffineCompose packs (a, b) into a 64-bit integer");
    const std::uint64_t a_f = static_cast<std::uint64_t>(f) >> 32, b_f = static_cast<std::uint32_t>(f);
    const std::uint64_t a_g = static_cast<std::uint64_t>(g) >> 32, b_g = static_cast<std::uint32_t>(g);
    const std::uint32_t a = static_cast<std::uint32_t>(a_g * a_f);
    const std::uint32_t b = static_cast<std::uint32_t>(a_g * b_f + b_g);
    return static_cast<T>((static_cast<std::uint64_t>(a) << 32) | b);
  }
  template <typename T>
  SG_HOST_DEVICE static constexpr T identity() { return static_cast<T>(std::uint64_t{1} << 32); }
};

// Names used in table headers and flags.
template <typename T> constexpr const char* type_name();
template <> constexpr const char* type_name<std::int32_t>() { return "int32"; }
template <> constexpr const char* type_name<std::int64_t>() { return "int64"; }
template <> constexpr const char* type_name<float>() { return "float"; }
template <> constexpr const char* type_name<double>() { return "double"; }

}  // namespace sg

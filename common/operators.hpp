// common/operators.hpp - the binary operators a scan is taught with.
//
// A scan needs an associative operator with an identity. Sum is the prefix sum; Max is
// the second operator every chapter is checked with where its structure allows, because
// it has no inverse: a kernel that quietly relies on subtraction (exclusive = inclusive - x)
// is right for Sum and wrong for Max.
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

// Names used in table headers and flags.
template <typename T> constexpr const char* type_name();
template <> constexpr const char* type_name<std::int32_t>() { return "int32"; }
template <> constexpr const char* type_name<std::int64_t>() { return "int64"; }
template <> constexpr const char* type_name<float>() { return "float"; }
template <> constexpr const char* type_name<double>() { return "double"; }

}  // namespace sg

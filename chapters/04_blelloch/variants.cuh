// Chapter 04 - Blelloch: the variant list (see blelloch.cuh and layouts.cuh).
#pragma once

#include "common/variant.cuh"

#include <vector>

namespace ch04 {

struct Chapter {
  static constexpr const char* id = "04_blelloch";
  static constexpr const char* title = "Blelloch (Brent-Kung) block scan: linear work, and where the tree lives";
  template <typename T, typename Op>
  static std::vector<sg::Variant<T, Op>> variants();
};

}  // namespace ch04

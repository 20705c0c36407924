// Chapter 03 - Hillis-Steele (Kogge-Stone) block scans: the variant list (see kogge_stone.cuh).
#pragma once

#include "common/variant.cuh"

#include <vector>

namespace ch03 {

struct Chapter {
  static constexpr const char* id = "03_hillis_steele";
  static constexpr const char* title = "Hillis-Steele (Kogge-Stone) block scans, tile-local";
  template <typename T, typename Op>
  static std::vector<sg::Variant<T, Op>> variants();
};

}  // namespace ch03

// Chapter 05 - the coarsened three-phase block scan: the variant list (see tile_local.cuh).
#pragma once

#include "common/variant.cuh"

#include <vector>

namespace ch05 {

struct Chapter {
  static constexpr const char* id = "05_block_scan";
  static constexpr const char* title = "coarsened three-phase block scan (registers + warp shuffles), tile-local";
  template <typename T, typename Op>
  static std::vector<sg::Variant<T, Op>> variants();
};

}  // namespace ch05

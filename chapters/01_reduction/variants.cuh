// Chapter 01 - reduction: the variant list (kernels in reduction.cuh and fixed_grid.cuh,
// building blocks in block_reduce.cuh).
#pragma once

#include "common/variant.cuh"

#include <vector>

namespace ch01 {

struct Chapter {
  static constexpr const char* id = "01_reduction";
  static constexpr const char* title = "reduction: from the divergent tree to a fixed grid at half a copy";
  template <typename T, typename Op>
  static std::vector<sg::Variant<T, Op>> variants();
};

}  // namespace ch01

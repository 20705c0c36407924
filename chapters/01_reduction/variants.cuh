// Chapter 01 - reduction: the variant list (kernels in reduction.cuh and fixed_grid.cuh,
// building blocks in block_reduce.cuh).
#pragma once

#include "common/variant.cuh"

#include <vector>

namespace ch01 {

SG_CHAPTER("01_reduction", "reduction: from the divergent tree to a fixed grid at half a copy");

}  // namespace ch01

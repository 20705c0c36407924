// Chapter 07 - reduce-then-scan: the variant list (kernels in reduce_then_scan.cuh).
#pragma once

#include "common/variant.cuh"

#include <vector>

namespace ch07 {

SG_CHAPTER("07_reduce_then_scan", "two-level streaming reduce-then-scan over a fixed grid of C blocks");

}  // namespace ch07

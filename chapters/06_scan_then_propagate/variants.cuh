// Chapter 06 - scan-then-propagate: the variant list (kernels in scan_then_propagate.cuh).
#pragma once

#include "common/variant.cuh"

#include <vector>

namespace ch06 {

SG_CHAPTER("06_scan_then_propagate", "scan-then-propagate: a hierarchy of block scans, then a propagation per level");

}  // namespace ch06

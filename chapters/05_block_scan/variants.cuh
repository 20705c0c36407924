// Chapter 05 - the coarsened three-phase block scan: the variant list (see tile_local.cuh).
#pragma once

#include "common/variant.cuh"

#include <vector>

namespace ch05 {

SG_CHAPTER("05_block_scan", "coarsened three-phase block scan (registers + warp shuffles), tile-local");

}  // namespace ch05

// Chapter 03 - Hillis-Steele (Kogge-Stone) block scans: the variant list (see kogge_stone.cuh).
#pragma once

#include "common/variant.cuh"

#include <vector>

namespace ch03 {

SG_CHAPTER("03_hillis_steele", "Hillis-Steele (Kogge-Stone) block scans, tile-local");

}  // namespace ch03

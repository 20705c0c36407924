// Chapter 08 - the chained scan: the variant list (kernel in chained_scan.cuh, publication
// schemes in tile_status.cuh, demonstrations in demos.cuh).
#pragma once

#include "common/variant.cuh"

#include <vector>

namespace ch08 {

SG_CHAPTER("08_chained_scan", "chained scan: one pass, each tile waits for its predecessor's prefix");

}  // namespace ch08

// Chapter 09 - single-pass scan with decoupled look-back: the variant list (v1-v3 in
// lookback.cuh, v4 in tuned.cuh).
#pragma once

#include "common/variant.cuh"

#include <string>
#include <vector>

namespace ch09 {

SG_CHAPTER("09_decoupled_lookback", "single-pass scan with decoupled look-back, from a first correct version to a tuned one");

// The tile of the variant called `name`, in elements of `element_bytes` (the program prints
// look-back statistics per tile).
std::size_t tile_items_of(const std::string& name, std::size_t element_bytes);

}  // namespace ch09

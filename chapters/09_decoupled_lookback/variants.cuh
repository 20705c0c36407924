// Chapter 09 - single-pass scan with decoupled look-back: the variant list (v1-v3 in
// lookback.cuh, v4 in tuned.cuh).
#pragma once

#include "common/variant.cuh"

#include <vector>

namespace ch09 {

SG_CHAPTER("09_decoupled_lookback", "single-pass scan with decoupled look-back, from a first correct version to a tuned one");

}  // namespace ch09

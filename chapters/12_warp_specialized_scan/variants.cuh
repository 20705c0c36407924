// Chapter 12 - the warp-specialized single-pass scan: the variant list (step 1 in
// persistent.cuh, steps 2-11 in warp_specialized.cuh).
#pragma once

#include "common/variant.cuh"

#include <vector>

namespace ch12 {

SG_CHAPTER("12_warp_specialized_scan", "warp-specialized single-pass scan: bulk copies, an mbarrier pipeline, a look-back warp");

}  // namespace ch12

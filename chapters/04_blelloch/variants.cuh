// Chapter 04 - Blelloch: the variant list (see blelloch.cuh and layouts.cuh).
#pragma once

#include "common/variant.cuh"

#include <vector>

namespace ch04 {

SG_CHAPTER("04_blelloch", "Blelloch (Brent-Kung) block scan: linear work, and where the tree lives");

}  // namespace ch04

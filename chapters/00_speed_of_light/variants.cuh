// Chapter 00 - speed of light: the variant list (see copy.cuh and cub_scan.cuh).
#pragma once

#include "common/variant.cuh"

#include <vector>

namespace ch00 {

SG_CHAPTER("00_speed_of_light", "speed of light: copies, and the CUB scan every chapter races");

}  // namespace ch00

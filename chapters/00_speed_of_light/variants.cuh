// Chapter 00 - speed of light: the variant list (see copy.cuh and cub_scan.cuh).
#pragma once

#include "common/variant.cuh"

#include <vector>

namespace ch00 {

struct Chapter {
  static constexpr const char* id = "00_speed_of_light";
  static constexpr const char* title = "speed of light: copies, and the CUB scan every chapter races";
  template <typename T, typename Op>
  static std::vector<sg::Variant<T, Op>> variants();
};

}  // namespace ch00

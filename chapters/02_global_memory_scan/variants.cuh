// Chapter 02 - global-memory scans: the variant list (kernels in hillis_steele_global.cuh
// and blelloch_global.cuh, launch counts and traffic models in model.hpp).
#pragma once

#include "common/variant.cuh"

#include <string>
#include <vector>

namespace ch02 {

SG_CHAPTER("02_global_memory_scan", "global-memory scans: one launch per step or tree level");

// Kernel launches the variant called `name` makes for n elements (the program prints a
// row timing that many empty launches next to it).
std::size_t launches_of(const std::string& name, std::size_t n);

}  // namespace ch02

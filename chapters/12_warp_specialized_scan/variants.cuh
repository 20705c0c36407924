// Chapter 12 - the warp-specialized single-pass scan: the chapter, and its launchers. The
// kernels are compiled in ladder.cu and warp_specialized.cu, side by side, for every element
// type and operator (SG_CH12_ELEMENTS).
#pragma once

#include "common/operators.hpp"
#include "common/variant.cuh"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ch12 {

SG_CHAPTER("12_warp_specialized_scan", "warp-specialized single-pass scan: bulk copies, an mbarrier pipeline, look-back warps");

// Steps 1-5 (ladder.cuh) and step 6, the final kernel (warp_specialized.cuh).
template <typename T, typename Op, bool kExclusive, int kStep>
void ladder_scan(const T* in, T* out, std::size_t n, cudaStream_t stream);
template <typename T, typename Op, bool kExclusive>
void warp_specialized_scan(const T* in, T* out, std::size_t n, cudaStream_t stream);
// Whether this GPU runs the bulk-copy kernels (false: every step runs chapter 09's v4).
bool runs_bulk_copy_kernel();

}  // namespace ch12

// X(T, Op) for every element type and operator the programs and tests use.
#define SG_CH12_ELEMENTS(X)                                                                         \
  X(std::int32_t, sg::Sum) X(std::int64_t, sg::Sum) X(float, sg::Sum) X(std::int32_t, sg::Max) \
  X(std::int64_t, sg::Max) X(float, sg::Max) X(std::int64_t, sg::AffineCompose)

// common/launch.cuh - small launch-geometry helpers shared by the chapters.
#pragma once

#include "common/check.cuh"
#include "common/operators.hpp"  // SG_HOST_DEVICE

#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace sg {

// Blocks needed to give each of `work` items to one thread (or one tile) of `per_block`.
inline unsigned blocks_for(std::size_t work, std::size_t per_block) {
  const std::size_t blocks = (work + per_block - 1) / per_block;
  if (blocks > 0x7FFFFFFFull) throw std::invalid_argument("problem too large for a one-dimensional grid");
  return static_cast<unsigned>(blocks);
}

// How many blocks of `kernel` fit on the whole GPU at once: the grid of a persistent
// (grid-stride) kernel, which then loops over the data instead of launching a block per
// tile. Computed once per kernel and thread count (the answer never changes).
template <typename Kernel>
unsigned resident_blocks(Kernel kernel, int threads, std::size_t dynamic_shared_bytes = 0) {
  int device = 0, sms = 0, per_sm = 0;
  SG_CUDA(cudaGetDevice(&device));
  SG_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  SG_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, dynamic_shared_bytes));
  return static_cast<unsigned>(sms * (per_sm > 0 ? per_sm : 1));
}

// True when p may be read as 16-byte vectors.
SG_HOST_DEVICE inline bool aligned_16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

}  // namespace sg

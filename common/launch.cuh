// common/launch.cuh - small launch-geometry helpers shared by the chapters.
#pragma once

#include "common/check.cuh"
#include "common/operators.hpp"  // SG_HOST_DEVICE

#include <cstddef>
#include <cstdint>
#include <cstring>
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

// Elements in one 16-byte vector: what a thread of an elementwise kernel moves at once, as
// chapter 00's fastest copy does (one vector per thread, a block per 256 vectors, no loop).
template <typename T>
inline constexpr int kVector = static_cast<int>(16 / sizeof(T));

#if defined(__CUDACC__)
// A thread's group of kVector elements starting at `first`: one 16-byte access when the array
// is aligned and the group lies inside it, element by element otherwise (0 past the end on a load).
template <typename T>
__device__ __forceinline__ void load_group(const T* __restrict__ in, std::size_t first, std::size_t n, T (&x)[kVector<T>]) {
  if (first + kVector<T> <= n && aligned_16(in)) {
    const uint4 raw = *reinterpret_cast<const uint4*>(in + first);
    memcpy(x, &raw, sizeof raw);
  } else {
#pragma unroll
    for (int v = 0; v < kVector<T>; ++v) x[v] = first + v < n ? in[first + v] : T(0);
  }
}

template <typename T>
__device__ __forceinline__ void store_group(T* __restrict__ out, std::size_t first, std::size_t n, const T (&x)[kVector<T>]) {
  if (first + kVector<T> <= n && aligned_16(out)) {
    uint4 raw;
    memcpy(&raw, x, sizeof raw);
    *reinterpret_cast<uint4*>(out + first) = raw;
  } else {
#pragma unroll
    for (int v = 0; v < kVector<T>; ++v)
      if (first + v < n) out[first + v] = x[v];
  }
}

// The index of this thread's group's first element (one group per thread).
template <typename T>
__device__ __forceinline__ std::size_t group_first() {
  return (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) * static_cast<std::size_t>(kVector<T>);
}
#endif

}  // namespace sg

// Chapter 02 - global-memory scans: the one launch helper every kernel of the chapter uses.
//
// All kernels here give one thread to one work item (an element, or a node of a tree
// level) and keep nothing between launches except global memory; the launcher decides how
// many threads a launch gets and in blocks of what size.
#pragma once

#include "common/check.cuh"
#include "common/launch.cuh"

#include <cuda_runtime.h>

#include <cstddef>

namespace ch02 {

inline constexpr int kThreads = 256;   // block size of every full-array launch
inline constexpr int kWarpSize = 32;

// size_t, so that arrays above 2^31 elements index correctly.
__device__ __forceinline__ std::size_t global_thread_index() {
  return static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}

// Launches `kernel(args...)` on at least `threads` threads in blocks of `block`.
template <typename... Params, typename... Args>
void launch_threads(void (*kernel)(Params...), std::size_t threads, int block, cudaStream_t stream, Args... args) {
  if (threads == 0) return;
  kernel<<<sg::blocks_for(threads, static_cast<std::size_t>(block)), block, 0, stream>>>(args...);
  SG_CHECK_LAUNCH();
}

}  // namespace ch02

// Chapter 00 - speed of light: copy kernels.
//
// Where it sits: the yardstick for every later chapter. A scan must read n elements and
// write n; a copy does exactly that and nothing else, so no scan can beat a copy, and
// "time / copy time" is how every chapter reports itself.
//
// Model: work 0, depth 1, bytes moved 2n (read n + write n).
// Run:   ./build/bin/00_speed_of_light --n 2^26
//
// Four kernels, each fixing what limits the one before:
//   one_element_per_thread   the textbook kernel: a block per 256 elements, each thread
//                            moves one 4-byte element. Millions of tiny blocks, and a
//                            load/store instruction for every 4 bytes.
//   grid_stride              a fixed grid that just fills the GPU; each thread loops.
//                            Fewer blocks to schedule, same 4-byte instructions.
//   vectorised_grid_stride   the grid-stride loop over 16-byte vectors (uint4), four loads
//                            in flight per thread before the first store: a quarter of
//                            the memory instructions, many more bytes in flight.
//   vectorised_16B           one 16-byte vector per thread, a block per 4 KiB, no loop.
//                            Measured on an H200, the persistent loop above stays near 93%
//                            of cudaMemcpy whatever its geometry, while this plain launch
//                            matches it: the block scheduler hands out blocks in address
//                            order, so the GPU's outstanding accesses stay in one compact,
//                            moving window of memory; persistent threads drift apart and
//                            spread theirs over the array (see README.md for the numbers).
#pragma once

#include "common/check.cuh"
#include "common/launch.cuh"

#include <cuda_runtime.h>

#include <cstddef>

namespace ch00 {

inline constexpr int kCopyThreads = 256;

template <typename T>
__global__ void copy_one_element_per_thread_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

template <typename T>
__global__ void copy_grid_stride_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = in[i];
}

// Copies `vectors` 16-byte vectors with a grid-stride loop, then the few elements of the
// tail that do not fill one.
template <typename T, int kInFlight = 4>
__global__ void copy_vectorised_grid_stride_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  constexpr std::size_t kPerVector = sizeof(uint4) / sizeof(T);
  const std::size_t vectors = n / kPerVector;
  const uint4* __restrict__ in4 = reinterpret_cast<const uint4*>(in);
  uint4* __restrict__ out4 = reinterpret_cast<uint4*>(out);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;

  // Main loop: kInFlight independent loads are issued before any store waits on them.
  for (; i + (kInFlight - 1) * stride < vectors; i += kInFlight * stride) {
    uint4 v[kInFlight];
#pragma unroll
    for (int k = 0; k < kInFlight; ++k) v[k] = in4[i + k * stride];
#pragma unroll
    for (int k = 0; k < kInFlight; ++k) out4[i + k * stride] = v[k];
  }
  for (; i < vectors; i += stride) out4[i] = in4[i];

  // Tail: fewer than kPerVector elements, one per thread of the first block.
  const std::size_t tail = vectors * kPerVector + threadIdx.x;
  if (blockIdx.x == 0 && tail < n) out[tail] = in[tail];
}

// One 16-byte vector per thread; the block after the last full vector's block copies the tail.
template <typename T>
__global__ void copy_vectorised_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  constexpr std::size_t kPerVector = sizeof(uint4) / sizeof(T);
  const std::size_t vectors = n / kPerVector;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < vectors) {
    reinterpret_cast<uint4*>(out)[i] = reinterpret_cast<const uint4*>(in)[i];
  } else if (i - vectors < n - vectors * kPerVector) {  // the tail: fewer than kPerVector elements
    out[vectors * kPerVector + (i - vectors)] = in[vectors * kPerVector + (i - vectors)];
  }
}

// ---- launchers (the uniform chapter API: device in, device out, n, stream) ----------

template <typename T>
void copy_one_element_per_thread(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  copy_one_element_per_thread_kernel<<<sg::blocks_for(n, kCopyThreads), kCopyThreads, 0, stream>>>(in, out, n);
  SG_CHECK_LAUNCH();
}

template <typename T>
void copy_grid_stride(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  static const unsigned grid = sg::resident_blocks(copy_grid_stride_kernel<T>, kCopyThreads);
  copy_grid_stride_kernel<<<grid, kCopyThreads, 0, stream>>>(in, out, n);
  SG_CHECK_LAUNCH();
}

template <typename T>
void copy_vectorised_grid_stride(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  if (!sg::aligned_16(in) || !sg::aligned_16(out)) return copy_grid_stride(in, out, n, stream);  // cannot use uint4
  static const unsigned grid = sg::resident_blocks(copy_vectorised_grid_stride_kernel<T>, kCopyThreads);
  copy_vectorised_grid_stride_kernel<<<grid, kCopyThreads, 0, stream>>>(in, out, n);
  SG_CHECK_LAUNCH();
}

template <typename T>
void copy_vectorised(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  if (!sg::aligned_16(in) || !sg::aligned_16(out)) return copy_one_element_per_thread(in, out, n, stream);  // cannot use uint4
  constexpr std::size_t kPerVector = sizeof(uint4) / sizeof(T);
  const std::size_t threads_needed = n / kPerVector + n % kPerVector;  // a thread per vector, and per tail element
  copy_vectorised_kernel<<<sg::blocks_for(threads_needed, kCopyThreads), kCopyThreads, 0, stream>>>(in, out, n);
  SG_CHECK_LAUNCH();
}

template <typename T>
void copy_cuda_memcpy(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  SG_CUDA(cudaMemcpyAsync(out, in, n * sizeof(T), cudaMemcpyDeviceToDevice, stream));
}

}  // namespace ch00

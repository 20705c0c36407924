// Chapter 10 - the libraries' compaction, measured in the same run: CUB and Thrust.
//
//   cub::DeviceSelect::If    CUB's single-pass select: decoupled look-back over tile counts,
//                            the algorithm fused.cuh builds. Asks for its temporary storage
//                            first (a call with a null pointer), like CUB's scan (chapter 00).
//   thrust::copy_if          what most code calls. It returns the output's end as an iterator,
//                            so it copies the count back to the host and waits: the row
//                            includes that round trip and Thrust's own temporary allocation,
//                            as a program calling it would see.
#pragma once

#include "10_stream_compaction/compaction.cuh"
#include "common/check.cuh"
#include "common/device_buffer.cuh"

#include <cub/device/device_select.cuh>
#include <thrust/copy.h>
#include <thrust/execution_policy.h>

#include <cstddef>
#include <cstdint>

namespace ch10 {

template <typename T>
cudaError_t cub_select_if(void* temp, std::size_t& temp_bytes, const T* in, T* out, unsigned long long* count, std::size_t n,
                          Keep<T> keep, cudaStream_t stream) {
  return cub::DeviceSelect::If(temp, temp_bytes, in, out, count, static_cast<std::int64_t>(n), keep, stream);
}

template <typename T>
std::size_t cub_select_scratch_bytes(std::size_t n) {
  std::size_t bytes = 0;
  SG_CUDA(cub_select_if<T>(nullptr, bytes, nullptr, nullptr, nullptr, n, Keep<T>{}, nullptr));
  return bytes;
}

template <typename T>
void cub_compact(const T* in, T* out, unsigned long long* count, std::size_t n, Keep<T> keep, cudaStream_t stream) {
  std::size_t bytes = cub_select_scratch_bytes<T>(n);
  void* temp = sg::scratch_bytes(bytes > 0 ? bytes : 1);
  SG_CUDA(cub_select_if<T>(temp, bytes, in, out, count, n, keep, stream));
}

template <typename T>
void thrust_compact(const T* in, T* out, unsigned long long* count, std::size_t n, Keep<T> keep, cudaStream_t stream) {
  static unsigned long long kept = 0;  // static: the asynchronous copy below reads it after we return
  kept = static_cast<unsigned long long>(thrust::copy_if(thrust::cuda::par.on(stream), in, in + n, out, keep) - out);
  SG_CUDA(cudaMemcpyAsync(count, &kept, sizeof kept, cudaMemcpyHostToDevice, stream));
}

}  // namespace ch10

// Chapter 10 - the libraries' compaction, measured in the same run: CUB and Thrust.
//
//   cub::DeviceSelect::If    CUB's single-pass select: decoupled look-back over tile counts,
//                            the algorithm fused.cuh builds. Asks for its temporary storage
//                            first (a call with a null pointer), like CUB's scan (chapter 00).
//   thrust::copy_if          what most code calls. It returns the output's end as an iterator,
//                            so it copies the count back to the host and waits: the row
//                            includes that round trip and Thrust's own temporary allocation,
//                            as a program calling it would see.
//
// Neither runs above 2^31 - 1 elements (kSelectIfMaxItems, below).
#pragma once

#include "10_stream_compaction/compaction.cuh"
#include "common/check.cuh"
#include "common/device_buffer.cuh"

#include <cub/device/device_select.cuh>
#include <cub/version.cuh>
#include <thrust/copy.h>
#include <thrust/execution_policy.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

namespace ch10 {

// ---- where the libraries are not run ------------------------------------------------------
//
// DeviceSelect::If takes a 64-bit n (from CCCL 3.0 on; an int before) and, above INT_MAX, runs
// its kernels over partitions of at most INT_MAX elements. With the CCCL of CUDA 13.0 (3.0.1), `--n 2^31+3 --keep 1 --variant cub`
// ends in an illegal memory access inside it (H100 and H200). That error is sticky: the CUDA
// context is lost, and every later row of the table with it. thrust::copy_if is no way around
// it: it dispatches to the same DispatchSelectIf with 64-bit offsets (thrust/system/cuda/
// detail/copy_if.h). So both rows are skipped above INT_MAX, and say why; the chapter's own
// rows run there (fused/ballot_lookback: one pass, 64-bit counts). Try again with a newer CCCL.
inline constexpr std::size_t kSelectIfMaxItems = static_cast<std::size_t>(std::numeric_limits<int>::max());

// "3.0.1": the CCCL release this program was compiled with (CUB's number before CCCL had one).
inline std::string cccl_version() {
#if defined(CCCL_MAJOR_VERSION)
  return std::to_string(CCCL_MAJOR_VERSION) + "." + std::to_string(CCCL_MINOR_VERSION) + "." + std::to_string(CCCL_PATCH_VERSION);
#else
  return std::to_string(CUB_MAJOR_VERSION) + "." + std::to_string(CUB_MINOR_VERSION) + "." + std::to_string(CUB_SUBMINOR_VERSION);
#endif
}

// The check column of CUB's row above kSelectIfMaxItems, or of a caller's ("thrust::copy_if").
inline std::string select_if_skipped(const std::string& caller = "") {
  return "skipped above 2^31 - 1 elements: " + (caller.empty() ? std::string() : caller + " runs ") + "cub::DeviceSelect::If (CCCL " +
         cccl_version() + "), which faults there with an illegal memory access (the CUDA context is lost); this chapter's "
         "one pass with 64-bit counts is fused/ballot_lookback";
}

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

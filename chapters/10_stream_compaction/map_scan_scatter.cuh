// Chapter 10 - compaction as the textbook builds it: map, scan, scatter.
//
// The "work-efficient compact" of Ge's CIS 565 project and the Teaching Kit's module 10, three
// kernels:
//
//   map       flags[i]   = keep(in[i]) ? 1 : 0                      read s n, write o n
//   scan      offsets    = exclusive scan of flags (chapter 09, v4)  read o n, write o n
//   scatter   out[offsets[i]] = in[i] where keep(in[i]);             read s n + o n, write s k
//             the last thread writes the count: offsets[n-1] + flag
//
// Each kernel is as fast as chapters 00 and 09 make it, and the pipeline is still slow: the
// flags and offsets are written to memory only to be read back, and the input is read
// twice. 2 s n + 4 o n + s k bytes, 3.25x a copy of n int32 at keep 0.5, where the fused pass
// (fused.cuh) needs s (n + k), 0.75x. The offsets are 32-bit while n < 2^31 (compaction.cuh).
//
// Run: ./build/bin/10_stream_compaction --variant map_scan_scatter,fused --n 2^26
#pragma once

#include "09_decoupled_lookback/tuned.cuh"
#include "10_stream_compaction/compaction.cuh"
#include "10_stream_compaction/fused.cuh"  // kVector (common/launch.cuh)
#include "common/device_buffer.cuh"
#include "common/launch.cuh"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstring>

namespace ch10 {

inline constexpr int kElementwiseThreads = 256;

// The map and the scatter move their input as chapter 00's fastest copy does: one 16-byte
// vector per thread (sg::load_group, common/launch.cuh), a block per 256 vectors, no loop. The
// flags and offsets of those elements travel together too, as one aligned group.
template <typename T, typename Offset>
struct alignas(kVector<T> * sizeof(Offset) <= 16 ? kVector<T> * sizeof(Offset) : 16) OffsetGroup {
  Offset of[kVector<T>];
};

template <typename T, typename Offset>
__global__ void __launch_bounds__(kElementwiseThreads)
    map_kernel(const T* __restrict__ in, Offset* __restrict__ flags, std::size_t n, Keep<T> keep) {
  const std::size_t first = sg::group_first<T>();
  if (first >= n) return;
  T x[kVector<T>];
  sg::load_group(in, first, n, x);
  OffsetGroup<T, Offset> group;
#pragma unroll
  for (int v = 0; v < kVector<T>; ++v) group.of[v] = keep(x[v]) ? Offset(1) : Offset(0);
  if (first + kVector<T> <= n) {
    *reinterpret_cast<OffsetGroup<T, Offset>*>(flags + first) = group;  // flags is 256-byte aligned
  } else {
    for (int v = 0; first + v < n; ++v) flags[first + v] = group.of[v];
  }
}

template <typename T, typename Offset>
__global__ void __launch_bounds__(kElementwiseThreads)
    scatter_kernel(const T* __restrict__ in, const Offset* __restrict__ offsets, T* __restrict__ out,
                   unsigned long long* __restrict__ count, std::size_t n, Keep<T> keep) {
  const std::size_t first = sg::group_first<T>();
  if (first >= n) return;
  T x[kVector<T>];
  sg::load_group(in, first, n, x);
  OffsetGroup<T, Offset> group;
  if (first + kVector<T> <= n) {
    group = *reinterpret_cast<const OffsetGroup<T, Offset>*>(offsets + first);
  } else {
    for (int v = 0; v < kVector<T>; ++v) group.of[v] = first + v < n ? offsets[first + v] : Offset(0);
  }
#pragma unroll
  for (int v = 0; v < kVector<T>; ++v) {
    if (first + v >= n) break;
    const bool kept = keep(x[v]);
    if (kept) out[group.of[v]] = x[v];
    if (first + v == n - 1) *count = static_cast<unsigned long long>(group.of[v]) + (kept ? 1u : 0u);
  }
}

template <typename Offset>
std::size_t pipeline_bytes(std::size_t n) {
  return 2 * n * sizeof(Offset) + 256;  // flags, then offsets
}

inline std::size_t map_scan_scatter_scratch_bytes(std::size_t n) {
  return wide_offsets(n) ? pipeline_bytes<unsigned long long>(n) : pipeline_bytes<unsigned int>(n);
}

template <typename T, typename Offset>
void map_scan_scatter_with(const T* in, T* out, unsigned long long* count, std::size_t n, Keep<T> keep, cudaStream_t stream) {
  unsigned char* scratch = static_cast<unsigned char*>(sg::scratch_bytes(pipeline_bytes<Offset>(n)));
  Offset* flags = reinterpret_cast<Offset*>(scratch);
  Offset* offsets = reinterpret_cast<Offset*>(scratch + (n * sizeof(Offset) + 255) / 256 * 256);
  const unsigned blocks = sg::blocks_for(n, static_cast<std::size_t>(kElementwiseThreads) * kVector<T>);
  map_kernel<T, Offset><<<blocks, kElementwiseThreads, 0, stream>>>(in, flags, n, keep);
  SG_CHECK_LAUNCH();
  ch09::tuned_scan<Offset, sg::Sum, /*exclusive=*/true>(flags, offsets, n, stream);
  scatter_kernel<T, Offset><<<blocks, kElementwiseThreads, 0, stream>>>(in, offsets, out, count, n, keep);
  SG_CHECK_LAUNCH();
}

template <typename T>
void map_scan_scatter(const T* in, T* out, unsigned long long* count, std::size_t n, Keep<T> keep, cudaStream_t stream) {
  if (n == 0) {
    SG_CUDA(cudaMemsetAsync(count, 0, sizeof *count, stream));
    return;
  }
  if (wide_offsets(n)) map_scan_scatter_with<T, unsigned long long>(in, out, count, n, keep, stream);
  else map_scan_scatter_with<T, unsigned int>(in, out, count, n, keep, stream);
}

}  // namespace ch10

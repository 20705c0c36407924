// Chapter 01 - reduction: the block-level building blocks that later chapters reuse.
//
// This header holds this chapter's block-level reduction pieces, and the 16-byte Vector16 and
// reduce_vector that chapters 06 and 07 include, so that there is one definition of each:
//
//   warp_reduce(value, op)                    32 values -> 1: five register shuffles
//   block_reduce<kThreads>(value, op, warp_totals)
//                                             kThreads values -> 1: each warp reduces its own
//                                             values, the warp totals meet in shared memory,
//                                             and the first warp reduces them
//   thread_reduce_strided<kThreads, kInFlight>(in, begin, end, op)
//                                             one thread's share of the range [begin, end),
//                                             accumulated in registers from 16-byte loads
//   block_reduce_range<kThreads, kInFlight>(in, begin, end, op, warp_totals)
//                                             the whole range [begin, end) -> 1, by one block
//
// The operator must be associative and commutative (sg::Sum and sg::Max are). These functions
// combine elements in another order than the input's: the butterfly pairs lanes, and a thread
// strides through the range. Chapter 07's upsweep keeps the input's order (it serves any
// associative operator), so it has a loop of its own (reduce_range, on chapter 03's warp scan)
// and takes only Vector16 and reduce_vector from here.
#pragma once

#include "03_hillis_steele/warp_scan.cuh"  // kWarpSize, kFullWarp, lane_id (the warp *scan* is chapter 03's)

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace ch01 {

using ch03::kFullWarp;
using ch03::kWarpSize;

// ---- warp level --------------------------------------------------------------------------

// Reduces one value per lane across the full warp (all 32 lanes must call it) and returns
// the total in every lane.
//
// A butterfly: at offset 16 lane i combines with lane i ^ 16, then i ^ 8, ... i ^ 1. After
// the five steps every lane holds every value once. __shfl_down_sync does the same work in
// the same five instructions but leaves the total in lane 0 only, while the upper lanes
// combine stale copies. With __shfl_xor_sync any lane can use the result without a
// broadcast. Both partners of a pair compute op(a, b) and op(b, a), so all lanes end with the
// same bits when op is commutative (float addition is).
template <typename T, typename Op>
__device__ __forceinline__ T warp_reduce(T value, Op op) {
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) value = op(value, __shfl_xor_sync(kFullWarp, value, offset));
  return value;
}

// ---- block level -------------------------------------------------------------------------

// Reduces one value per thread across a block of exactly kThreads threads (blockDim.x ==
// kThreads, and every thread calls it, because it contains a __syncthreads()). The total is
// valid in every lane of warp 0, thread 0 included, and nowhere else.
//
// warp_totals_shared: kThreads / 32 elements of shared memory. If a block calls this
// more than once with the same array (a loop over tiles, say), it must __syncthreads()
// between calls, because warp 0 may still be reading the previous totals.
//
// Cost: 5 shuffle steps in every warp, one barrier, then log2(kThreads / 32) useful shuffle
// steps in warp 0 (it does all 5; lanes past the last warp add the identity).
template <int kThreads, typename T, typename Op>
__device__ __forceinline__ T block_reduce(T value, Op op, T* warp_totals_shared) {
  static_assert(kThreads % kWarpSize == 0 && kThreads <= 1024, "a block is 1 to 32 whole warps");
  constexpr int kWarps = kThreads / kWarpSize;
  value = warp_reduce(value, op);
  if constexpr (kWarps == 1) {
    return value;
  } else {
    const int warp = static_cast<int>(threadIdx.x) / kWarpSize;
    const int lane = ch03::lane_id();
    if (lane == 0) warp_totals_shared[warp] = value;
    __syncthreads();
    if (warp == 0) value = warp_reduce(lane < kWarps ? warp_totals_shared[lane] : Op::template identity<T>(), op);
    return value;
  }
}

// ---- a range, by one block: the "in-only" skeleton of Merrill & Grimshaw -----------------

// 16 bytes of T. An aligned Vector16 is loaded by one 128-bit instruction (LDG.E.128): four
// int32 or float values, or two int64, per load, and so a quarter of the load instructions
// of scalar code.
template <typename T>
struct alignas(16) Vector16 {
  static_assert(16 % sizeof(T) == 0, "the element size must divide 16 bytes");
  static constexpr int kCount = 16 / static_cast<int>(sizeof(T));
  T items[kCount];
};

template <typename T, typename Op>
__device__ __forceinline__ T reduce_vector(const Vector16<T>& v, Op op) {
  T total = v.items[0];
#pragma unroll
  for (int j = 1; j < Vector16<T>::kCount; ++j) total = op(total, v.items[j]);
  return total;
}

// How thread_reduce_strided cuts in[begin, end): a head up to the first 16-byte boundary,
// whole 16-byte vectors, and a tail.
//   head  the elements before the first 16-byte boundary: none when in + begin is aligned,
//         otherwise up to 16 / sizeof(T) - 1 of them. This is the fallback for an unaligned
//         pointer: only these few elements are read one at a time, and the body still uses
//         vector loads. (The pointer must be aligned to sizeof(T), as every valid T* is.)
//   tail  the fewer than 16 / sizeof(T) elements after the last whole vector.
// Only the address is used (nothing is read), so the host tests check this arithmetic.
struct VectorSplit {
  std::size_t body_begin = 0;  // [begin, body_begin): the head
  std::size_t vectors = 0;     // [body_begin, tail_begin): whole vectors
  std::size_t tail_begin = 0;  // [tail_begin, end): the tail
};

template <typename T>
__host__ __device__ inline VectorSplit split_into_vectors(const T* in, std::size_t begin, std::size_t end) {
  using Vector = Vector16<T>;
  VectorSplit split;
  if (begin >= end) {
    split.body_begin = split.tail_begin = begin;
    return split;
  }
  const std::size_t misalignment = reinterpret_cast<std::uintptr_t>(in + begin) % sizeof(Vector);
  const std::size_t to_boundary = misalignment == 0 ? 0 : (sizeof(Vector) - misalignment) / sizeof(T);
  split.body_begin = begin + (to_boundary < end - begin ? to_boundary : end - begin);
  split.vectors = (end - split.body_begin) / Vector::kCount;
  split.tail_begin = split.body_begin + split.vectors * Vector::kCount;
  return split;
}

// This thread's part of the reduction of in[begin, end), for a block of kThreads threads
// that together cover the range. Every thread of the block calls it, and the block then combines
// the per-thread results (block_reduce_range below does both). It has no barrier, so it
// may also be used on its own.
//
// The vectors are read in "block-stride" order: thread t takes vectors t, t + kThreads,
// t + 2 kThreads, ..., so each warp instruction reads 32 consecutive vectors (512 contiguous
// bytes), and each thread issues kInFlight independent loads before it combines any of them.
// DRAM needs that many bytes in flight to reach full bandwidth. The head and the tail
// (split_into_vectors) take one element per thread. Elements outside [begin, end) are never
// read. An empty range gives the identity.
template <int kThreads, int kInFlight = 4, typename T, typename Op>
__device__ __forceinline__ T thread_reduce_strided(const T* __restrict__ in, std::size_t begin, std::size_t end, Op op) {
  using Vector = Vector16<T>;
  static_assert(kThreads >= Vector::kCount, "the head and tail take one element per thread");
  const std::size_t t = threadIdx.x;
  const VectorSplit split = split_into_vectors(in, begin, end);
  T total = Op::template identity<T>();
  if (begin + t < split.body_begin) total = op(total, in[begin + t]);

  const Vector* __restrict__ body = reinterpret_cast<const Vector*>(in + split.body_begin);
  std::size_t i = t;
  for (; i + (kInFlight - 1) * kThreads < split.vectors; i += kInFlight * kThreads) {
    Vector v[kInFlight];
#pragma unroll
    for (int k = 0; k < kInFlight; ++k) v[k] = body[i + k * kThreads];  // kInFlight loads issued back to back
#pragma unroll
    for (int k = 0; k < kInFlight; ++k) total = op(total, reduce_vector(v[k], op));
  }
  for (; i < split.vectors; i += kThreads) total = op(total, reduce_vector(body[i], op));  // fewer than kInFlight rows left

  if (split.tail_begin + t < end) total = op(total, in[split.tail_begin + t]);
  return total;
}

// The reduction of in[begin, end) by one block of kThreads threads: per-thread accumulation
// in registers, then block_reduce. Same contract as block_reduce: every thread calls it,
// and the total is valid in thread 0.
template <int kThreads, int kInFlight = 4, typename T, typename Op>
__device__ __forceinline__ T block_reduce_range(const T* __restrict__ in, std::size_t begin, std::size_t end, Op op,
                                                T* warp_totals_shared) {
  return block_reduce<kThreads>(thread_reduce_strided<kThreads, kInFlight>(in, begin, end, op), op, warp_totals_shared);
}

}  // namespace ch01

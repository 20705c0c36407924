// Chapter 03 - Hillis-Steele (Kogge-Stone) block scans in shared memory.
//
// Where it sits: the first scans that run inside one thread block. Chapter 02 ran one
// kernel launch per step over global memory; here a whole tile lives in shared memory and
// a step costs a barrier instead of a launch. Chapter 04 does the same with the
// work-efficient Brent-Kung tree; chapter 05 coarsens the block scan until it runs at the
// speed of a copy.
//
// Model (tile of n elements): step d adds element j - 2^d into element j, for log2(n)
// steps. Work n log2 n - (n - 1) additions (the serial scan does n - 1), depth log2 n.
// Bytes: tile-local mode reads n and writes n, like a copy (model 1.0x copy).
//
// Run: ./build/bin/03_hillis_steele --n 2^26
//
// Variants, each fixing the flaw of the one before:
//   two_barrier           the Teaching Kit's kernel: read the partner, barrier, write,
//                         barrier. Two barriers per step because an element read in a step
//                         is overwritten in the same step.
//   double_buffer         ping-pong between two shared arrays: the step reads one and
//                         writes the other, so one barrier per step, at twice the memory.
//   reverse_accumulation  several elements per thread, one buffer: a thread walks its own
//                         chunk right to left, so a partner inside the chunk is read before
//                         it is overwritten; only partners in other chunks go through
//                         registers and a barrier. Larger tiles in the same shared memory.
//   warp_shuffle          Kogge-Stone where it is free: inside a warp the lanes step in lock
//                         step and __shfl_up_sync moves values through registers. Scan each
//                         warp, scan the 32 warp totals with one warp, add: 2 barriers per
//                         tile instead of 2 per step.
#pragma once

#include "03_hillis_steele/tile.cuh"
#include "03_hillis_steele/warp_scan.cuh"

#include <cuda_runtime.h>

#include <cstddef>

namespace ch03 {

inline constexpr int kBlockThreads = 1024;  // one element per thread: the tile is the block
inline constexpr int kReverseThreads = 256;
inline constexpr int kReverseItems = 8;  // elements per thread in reverse_accumulation
inline constexpr int kReverseTile = kReverseThreads * kReverseItems;

// The Teaching Kit's kernel, with every barrier reached by every thread (the Kit's loop
// `for (stride = 1; stride <= threadIdx.x; ...)` calls __syncthreads() a different number of
// times in different threads, which is undefined behaviour).
template <typename T, typename Op, bool kExclusive>
__global__ void __launch_bounds__(kBlockThreads) two_barrier_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  __shared__ T tile_data[kBlockThreads];
  const Tile tile = this_block_tile(n, kBlockThreads);
  load_tile<T, Op>(in, tile, kBlockThreads, tile_data);
  const Op op;
  const int j = threadIdx.x;
  for (int stride = 1; stride < kBlockThreads; stride *= 2) {
    __syncthreads();  // the previous step's writes are visible
    const T lower = j >= stride ? tile_data[j - stride] : Op::template identity<T>();
    __syncthreads();  // every thread has read before any thread overwrites
    if (j >= stride) tile_data[j] = op(lower, tile_data[j]);
  }
  __syncthreads();
  store_tile<kExclusive, T, Op>(tile_data, tile, out);
}

template <typename T, typename Op, bool kExclusive>
__global__ void __launch_bounds__(kBlockThreads) double_buffer_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  __shared__ T buffers[2][kBlockThreads];
  const Tile tile = this_block_tile(n, kBlockThreads);
  load_tile<T, Op>(in, tile, kBlockThreads, buffers[0]);
  const Op op;
  const int j = threadIdx.x;
  int current = 0;
  for (int stride = 1; stride < kBlockThreads; stride *= 2) {
    __syncthreads();  // the previous step's writes are visible; nobody reads what this step writes
    const T* from = buffers[current];
    buffers[1 - current][j] = j >= stride ? op(from[j - stride], from[j]) : from[j];
    current = 1 - current;
  }
  __syncthreads();
  store_tile<kExclusive, T, Op>(buffers[current], tile, out);
}

// Thread t owns the chunk [t * kReverseItems, (t + 1) * kReverseItems) of the tile.
template <typename T, typename Op, bool kExclusive>
__global__ void __launch_bounds__(kReverseThreads) reverse_accumulation_kernel(const T* __restrict__ in, T* __restrict__ out,
                                                                              std::size_t n) {
  __shared__ T tile_data[kReverseTile];
  const Tile tile = this_block_tile(n, kReverseTile);
  load_tile<T, Op>(in, tile, kReverseTile, tile_data);
  const Op op;
  const int first = threadIdx.x * kReverseItems;
  for (int stride = 1; stride < kReverseTile; stride *= 2) {
    __syncthreads();
    // Partners left of the chunk belong to other threads, which update them in this step:
    // take a copy first. (Element i's partner is outside exactly when i < stride.)
    T outside[kReverseItems];
#pragma unroll
    for (int i = 0; i < kReverseItems; ++i)
      outside[i] = (i < stride && first + i >= stride) ? tile_data[first + i - stride] : Op::template identity<T>();
    __syncthreads();
    // Right to left: a partner inside the chunk sits to the left, so it still holds this
    // step's input when it is read.
#pragma unroll
    for (int i = kReverseItems - 1; i >= 0; --i) {
      if (first + i < stride) continue;  // nothing to the left at this distance
      const T lower = i < stride ? outside[i] : tile_data[first + i - stride];
      tile_data[first + i] = op(lower, tile_data[first + i]);
    }
  }
  __syncthreads();
  store_tile<kExclusive, T, Op>(tile_data, tile, out);
}

template <typename T, typename Op, bool kExclusive>
__global__ void __launch_bounds__(kBlockThreads) warp_shuffle_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  constexpr int kWarps = kBlockThreads / kWarpSize;  // 32: one warp can scan their totals
  __shared__ T tile_data[kBlockThreads];
  __shared__ T warp_totals[kWarps];
  const Tile tile = this_block_tile(n, kBlockThreads);
  load_tile<T, Op>(in, tile, kBlockThreads, tile_data);  // thread j loads element j: no barrier needed to read it
  const Op op;
  const int warp = threadIdx.x / kWarpSize;
  const int lane = lane_id();

  T value = warp_inclusive_scan(tile_data[threadIdx.x], op);  // 5 shuffle steps, no barrier
  if (lane == kWarpSize - 1) warp_totals[warp] = value;
  __syncthreads();
  if (warp == 0) {  // one warp scans the warp totals: the second level of the same idea
    const T total = warp_inclusive_scan(warp_totals[lane], op);
    warp_totals[lane] = total;
  }
  __syncthreads();
  if (warp > 0) value = op(warp_totals[warp - 1], value);  // add the totals of the warps before
  tile_data[threadIdx.x] = value;
  __syncthreads();
  store_tile<kExclusive, T, Op>(tile_data, tile, out);
}

// ---- launchers (the uniform chapter API) ----------------------------------------------

template <typename T, typename Op, bool kExclusive>
void two_barrier(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  launch_tile_local(two_barrier_kernel<T, Op, kExclusive>, kBlockThreads, kBlockThreads, 0, in, out, n, stream);
}

template <typename T, typename Op, bool kExclusive>
void double_buffer(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  launch_tile_local(double_buffer_kernel<T, Op, kExclusive>, kBlockThreads, kBlockThreads, 0, in, out, n, stream);
}

template <typename T, typename Op, bool kExclusive>
void reverse_accumulation(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  launch_tile_local(reverse_accumulation_kernel<T, Op, kExclusive>, kReverseThreads, kReverseTile, 0, in, out, n, stream);
}

template <typename T, typename Op, bool kExclusive>
void warp_shuffle(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  launch_tile_local(warp_shuffle_kernel<T, Op, kExclusive>, kBlockThreads, kBlockThreads, 0, in, out, n, stream);
}

// ---- the lesson's arithmetic, host-tested ----------------------------------------------

// Steps and additions of Kogge-Stone over a power-of-two tile of n elements.
constexpr int kogge_stone_steps(long long n) {
  int steps = 0;
  for (long long stride = 1; stride < n; stride *= 2) ++steps;
  return steps;
}
constexpr long long kogge_stone_additions(long long n) {
  long long additions = 0;
  for (long long stride = 1; stride < n; stride *= 2) additions += n - stride;
  return additions;  // = n log2 n - (n - 1) for powers of two
}

}  // namespace ch03

// Chapter 01 - reduction: the fixed-grid, vectorised, coarsened kernel (Merrill & Grimshaw's
// "in-only" skeleton with a reduction inside). This is the variant that reaches the byte model.
//
// Where it sits: the last step of the chapter's progression (reduction.cuh has the first
// four), and the model for chapter 07's upsweep, which takes even_share from here and computes
// the same per-block totals with a loop of its own that keeps the input's order (any
// associative operator; this kernel needs a commutative one).
//
// Model: work n - 1 operator applications; depth n / (C x 256) serial steps in a thread plus
//        10 shuffle steps, then the same for the C partials; bytes moved n + 2C + 1 elements
//        (C ~ 1000 blocks: nothing next to n) -> 0.5 x copy.
// Run:   ./build/bin/01_reduction --variant fixed_grid --n 2^26
//
// The block-per-tile variants give each thread one or two elements, so most of a thread's
// life is the tree and its barriers, and the GPU must create and retire 2^17 blocks for 2^26 elements.
// Here the grid has exactly as many blocks as fit on the GPU at once (C, "resident"), and
// each block takes one contiguous share of the input. Its threads stream through that share
// with 16-byte loads, four in flight per thread, and accumulate in registers, so a thread does
// a few hundred elements before the one block_reduce at the end. Two launches, whatever n is:
//
//   launch 1: C blocks    block b reduces its share [begin_b, end_b) -> partials[b]
//   launch 2: 1 block     reduces partials[0, C) -> out[0]
//
// Both launches are the same kernel. With n at most one granule, launch 1 already has a
// single block, which writes out[0] itself.
//
// Why contiguous shares and not a grid-stride loop (thread i reads i, i + G, i + 2G, ...)?
// For a reduction both read the same bytes equally well. But a scan must see each block's
// elements in order: chapter 07's downsweep rescans block b's share seeded with the
// total of the shares before it, which only works if "block b's elements" is a contiguous
// range. The upsweep and the downsweep must split the input the same way, so both use even_share.
#pragma once

#include "01_reduction/block_reduce.cuh"
#include "common/check.cuh"
#include "common/device_buffer.cuh"
#include "common/launch.cuh"

#include <cuda_runtime.h>

#include <cstddef>

namespace ch01 {

inline constexpr int kFixedGridThreads = 256;
inline constexpr int kFixedGridInFlight = 4;  // 16-byte loads in flight per thread: 64 B, 16 KiB per block

// The even share: one block's contiguous part of the input.
struct Range {
  std::size_t begin = 0;
  std::size_t end = 0;
};

// Cuts n elements into granules of `granule` elements (the last one may be partial) and gives
// block b of `blocks` a contiguous run of whole granules. The first (granules % blocks) blocks
// get one granule more than the rest, so two shares differ by at most one granule, every share
// starts on a granule boundary, and the shares cover [0, n) in order without overlap. Blocks
// past the last granule get an empty range.
__host__ __device__ inline Range even_share(std::size_t n, std::size_t granule, unsigned blocks, unsigned block) {
  const std::size_t granules = (n + granule - 1) / granule;
  const std::size_t base = granules / blocks;
  const std::size_t extra = granules % blocks;
  const std::size_t first = block * base + (block < extra ? block : extra);
  const std::size_t count = base + (block < extra ? 1 : 0);
  Range range;
  range.begin = first * granule < n ? first * granule : n;
  range.end = (first + count) * granule < n ? (first + count) * granule : n;
  return range;
}

// One 16-byte vector per thread of the block: a share starts on a 4 KiB boundary (for an
// aligned input), so no warp's 512-byte load straddles another block's share.
template <typename T>
constexpr std::size_t fixed_grid_granule() {
  return static_cast<std::size_t>(kFixedGridThreads) * Vector16<T>::kCount;
}

// Block b reduces its even share of in[0, n) to out[b]. With one block, that is all of in[0, n).
template <typename T, typename Op, int kThreads, int kInFlight>
__global__ void __launch_bounds__(kThreads) fixed_grid_reduce_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  __shared__ T warp_totals[kThreads / kWarpSize];
  const Range mine = even_share(n, fixed_grid_granule<T>(), gridDim.x, blockIdx.x);
  const T total = block_reduce_range<kThreads, kInFlight>(in, mine.begin, mine.end, Op{}, warp_totals);
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

// The grid of launch 1: every block that fits on the GPU at once, but no more blocks than
// granules (a small input gets fewer, fuller blocks), and at least one.
template <typename T, typename Op>
unsigned fixed_grid_blocks(std::size_t n) {
  static const unsigned resident =
      sg::resident_blocks(fixed_grid_reduce_kernel<T, Op, kFixedGridThreads, kFixedGridInFlight>, kFixedGridThreads);
  const std::size_t granules = (n + fixed_grid_granule<T>() - 1) / fixed_grid_granule<T>();
  if (granules <= 1) return 1;
  return granules < resident ? static_cast<unsigned>(granules) : resident;
}

template <typename T, typename Op>
std::size_t fixed_grid_scratch_bytes(std::size_t n) {
  const unsigned blocks = fixed_grid_blocks<T, Op>(n);
  return blocks > 1 ? blocks * sizeof(T) : 0;
}

template <typename T, typename Op>
void reduce_fixed_grid(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  constexpr auto kernel = fixed_grid_reduce_kernel<T, Op, kFixedGridThreads, kFixedGridInFlight>;
  const unsigned blocks = fixed_grid_blocks<T, Op>(n);
  if (blocks == 1) {
    kernel<<<1, kFixedGridThreads, 0, stream>>>(in, out, n);
    SG_CHECK_LAUNCH();
    return;
  }
  T* partials = static_cast<T*>(sg::scratch_bytes(blocks * sizeof(T)));
  kernel<<<blocks, kFixedGridThreads, 0, stream>>>(in, partials, n);
  SG_CHECK_LAUNCH();
  kernel<<<1, kFixedGridThreads, 0, stream>>>(partials, out, blocks);
  SG_CHECK_LAUNCH();
}

}  // namespace ch01

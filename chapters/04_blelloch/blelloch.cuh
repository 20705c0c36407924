// Chapter 04 - Blelloch (Brent-Kung): the work-efficient block scan, and its bank conflicts.
//
// Where it sits: extends chapter 03 (Hillis-Steele, n log n work) by the balanced-tree scan
// of Blelloch (1990) on Brent & Kung's circuit: an up-sweep builds partial reductions up a
// binary tree, a down-sweep pushes prefixes back down, and the total work is linear. The
// price is depth (two sweeps instead of one) and, on a GPU, shared-memory bank conflicts:
// the tree's strides double at every level. The three variants keep one skeleton and
// change only where the tree's nodes live (layouts.cuh):
//
//   classic         in place, as Blelloch wrote it: 2^l-way conflicts at level l, up to 32
//   padded          one pad cell per 32 elements (GPU Gems 3 ch. 39): no conflicts
//   level_by_level  Merrill & Grimshaw's layout: two-way conflicts at every level by
//                   design, simple addresses, kTile - 2 extra cells. (The compiler merges
//                   a thread's two adjacent children into one 8-byte access, so on an H200
//                   only the down-sweep's left-child loads still conflict: README.)
//
// Model, per tile of n = kTile elements: work 2(n-1) operator applications (up-sweep n-2,
// the root is never needed; down-sweep n-1; inclusive adds n), depth 2 log2 n barriers;
// tile-local over a large array: read n, write n, the same bytes as a copy (1.0 x copy).
//
// Run: ./build/bin/04_blelloch --n 2^26
#pragma once

#include "03_hillis_steele/tile.cuh"
#include "04_blelloch/layouts.cuh"
#include "common/operators.hpp"

#include <cuda_runtime.h>

#include <cstddef>

namespace ch04 {

// 512 threads, 2 elements each: a 1024-element tile. Four such blocks fill an SM's 2048
// threads, so while one block's last levels run a single warp between barriers, three
// others have work; a 2048-element tile (1024 threads) would leave two blocks per SM and
// add two barriers per tile. The level-by-level tree of int64 needs 16 KiB of shared memory.
inline constexpr int kThreads = 512;
inline constexpr int kTile = 2 * kThreads;
inline constexpr int kPerThread = kTile / kThreads;
inline constexpr int kLevels = log2_exact(kTile);  // the root's level
static_assert(kTile == 1 << kLevels, "the tree needs a power-of-two tile");

// One step of each sweep for thread t at `level`: every thread of a level touches its own
// cells only, so a level needs no barrier inside, just one after it. Host-callable, so the
// tests run the same steps in any thread order and compare with the CPU scan.

// Up-sweep: node (level, t) = its left child op its right child.
template <typename Layout, typename T, typename Op>
SG_HOST_DEVICE inline void up_sweep_step(T* tree, int level, int t, Op op) {
  tree[Layout::node(level, t)] = op(tree[Layout::node(level - 1, 2 * t)], tree[Layout::node(level - 1, 2 * t + 1)]);
}

// Down-sweep: node (level, t) holds the prefix of everything left of its subtree (the
// exclusive scan value of its first leaf). The left child inherits it; the right child
// gets it combined with the left child's total, which the up-sweep left in the left child.
// The root is never stored: nothing precedes the tile, so its prefix is the identity.
template <typename Layout, typename T, typename Op>
SG_HOST_DEVICE inline void down_sweep_step(T* tree, int level, int t, Op op) {
  const T prefix = level == kLevels ? Op::template identity<T>() : tree[Layout::node(level, t)];
  const T left_total = tree[Layout::node(level - 1, 2 * t)];
  tree[Layout::node(level - 1, 2 * t)] = prefix;
  tree[Layout::node(level - 1, 2 * t + 1)] = op(prefix, left_total);
}

// Nodes at `level`: the threads that work in that step.
SG_HOST_DEVICE constexpr int nodes_at(int level) { return kTile >> level; }

// The block scan: load, up-sweep, down-sweep, store. The tree ends up holding the
// exclusive scan in its leaves; the inclusive form combines each element with its input,
// kept in registers from the load (never "exclusive minus x": max has no inverse).
template <typename T, typename Op, typename Layout, bool kInclusive>
__global__ void __launch_bounds__(kThreads) blelloch_tile_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  static_assert(sizeof(T) * Layout::kCells <= 48 * 1024, "static shared memory is limited to 48 KiB per block");
  __shared__ T tree[Layout::kCells];
  const Op op{};
  const int t = static_cast<int>(threadIdx.x);
  const LeafIndex<Layout> leaf{};
  const ch03::Tile tile = ch03::this_block_tile(n, kTile);

  ch03::load_tile<T, Op>(in, tile, kTile, tree, leaf);
  T own[kPerThread];
  if constexpr (kInclusive) {
    // load_tile's thread t wrote exactly these leaves (j = t + k * blockDim.x), so it can
    // read them back before the barrier; the up-sweep overwrites some of them after it.
#pragma unroll
    for (int k = 0; k < kPerThread; ++k) own[k] = tree[leaf(t + k * kThreads)];
  }
  __syncthreads();

#pragma unroll
  for (int level = 1; level < kLevels; ++level) {  // the root's total is never needed
    if (t < nodes_at(level)) up_sweep_step<Layout>(tree, level, t, op);
    __syncthreads();
  }
#pragma unroll
  for (int level = kLevels; level >= 1; --level) {
    if (t < nodes_at(level)) down_sweep_step<Layout>(tree, level, t, op);
    __syncthreads();
  }

  if constexpr (kInclusive) {
#pragma unroll
    for (int k = 0; k < kPerThread; ++k) {
      const int j = t + k * kThreads;
      if (j < tile.valid) out[tile.begin + j] = op(tree[leaf(j)], own[k]);
    }
  } else {
    ch03::store_tile<false, T, Op>(tree, tile, out, leaf);  // the leaves already hold the exclusive scan: no shift
  }
}

// The uniform launcher: one block per tile, each tile scanned on its own (tile.cuh).
template <typename T, typename Op, typename Layout, bool kInclusive>
void blelloch_tile_local(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  ch03::launch_tile_local(blelloch_tile_kernel<T, Op, Layout, kInclusive>, kThreads, kTile, 0, in, out, n, stream);
}

// The three layouts at this chapter's tile. The padded layout pads per row of banks, which
// holds 32 four-byte or 16 eight-byte elements.
using Classic = ClassicLayout<kTile>;
template <typename T>
using Padded = PaddedLayout<kTile, log2_elements_per_bank_row<T>()>;
using LevelByLevel = LevelByLevelLayout<kTile>;

}  // namespace ch04

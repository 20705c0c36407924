// Chapter 02 - global-memory scans: Blelloch's work-efficient scan, one launch per tree level.
//
// Where it sits: what a student writes after the naive scan (chapter 04 runs the same tree
// inside a block). It extends the naive version by doing O(n) work instead of O(n log n):
// a balanced tree is swept up (reduce) and down (distribute prefixes), each level one launch.
//
//   pad      t[i] = x[i] for i < n, identity up to N = next power of two
//   up       level l = 0 .. L-1, stride s = 2^l:   t[r] = t[r - s] op t[r]
//   down     level l = L-1 .. 0:                    t[r - s], t[r] = t[r], t[r] op t[r - s]
//            (the top level starts from the identity instead of the total in the root)
//   final    out[i] = t[i]           (exclusive: the tree leaves an exclusive scan)
//            out[i] = t[i] op x[i]   (inclusive: op, not subtraction, so Max works too)
// where r = (k + 1) * 2s - 1 for node k = 0 .. N / 2s - 1.
//
// Model: work O(n) (2(N - 1) operations), depth 2 log2 N + 2 launches; bytes: the pad and
// final passes are ~2n each, and every level touches whole 32-byte sectors, so the first
// levels, whose nodes are closer than a sector, each move the full array (model.hpp).
// At n = 2^26 int32: 54 launches, predicted 11.5x copy (exclusive), 12x (inclusive);
// at 2^26 + 1 the padding doubles N: 21.5x. Measured on an H200: remapped 17.7x / 18.0x /
// 32.3x, textbook 71.6x / 71.9x / 142.8x (idle blocks, README).
// Run:   ./build/bin/02_global_memory_scan --variant blelloch --n 2^26,2^26+1
//
// Padding (to a power of two, in scratch, with the identity) keeps the tree's index
// arithmetic free of bounds tests; the price is up to 2x the work and traffic just above
// a power of two. The identity, not zero, so that Max pads correctly.
//
// Two ways to map threads to the nodes of a level, the only difference between
// "blelloch" and "blelloch_remapped":
//   ThreadPerElement   the textbook mapping: N threads every level, thread i works iff i
//                      is a right child r. At level l only one thread in 2^(l+1) works: the
//                      top levels launch N / 256 blocks to do a handful of additions.
//   ThreadPerNode      thread k works on node k, and the grid is sized to the level's
//                      nodes (blocks of min(nodes, 256), rounded up to a warp): the top
//                      levels launch one small block.
#pragma once

#include "02_global_memory_scan/grid.cuh"
#include "02_global_memory_scan/model.hpp"
#include "common/device_buffer.cuh"

#include <algorithm>
#include <cstddef>

namespace ch02 {

struct ThreadPerElement {
  static std::size_t threads(std::size_t padded, std::size_t /*nodes*/) { return padded; }
  static int block(std::size_t /*threads*/) { return kThreads; }
  // (i + 1) % 2^(level+1) == 0, written as a mask: the span is a power of two.
  __device__ static bool works(std::size_t i, int level) {
    const std::size_t mask = (std::size_t{2} << level) - 1;
    return (i & mask) == mask;
  }
  __device__ static std::size_t node(std::size_t i, int level) { return i >> (level + 1); }
};

struct ThreadPerNode {
  static std::size_t threads(std::size_t /*padded*/, std::size_t nodes) { return nodes; }
  static int block(std::size_t threads) {
    const std::size_t warps = (std::min<std::size_t>(threads, kThreads) + kWarpSize - 1) / kWarpSize;
    return static_cast<int>(warps) * kWarpSize;
  }
  __device__ static bool works(std::size_t, int) { return true; }
  __device__ static std::size_t node(std::size_t k, int) { return k; }
};

// The pair a node of `level` combines: right = (k + 1) * 2^(level+1) - 1, left = right - 2^level.
struct Pair {
  std::size_t left, right;
};

// The node this thread works on, or false if it has none (idle in the textbook mapping,
// or past the last node in the last block).
template <typename Mapping>
__device__ __forceinline__ bool this_thread_pair(std::size_t nodes, int level, Pair& pair) {
  const std::size_t i = global_thread_index();
  if (!Mapping::works(i, level)) return false;
  const std::size_t k = Mapping::node(i, level);
  if (k >= nodes) return false;
  pair.right = ((k + 1) << (level + 1)) - 1;
  pair.left = pair.right - (std::size_t{1} << level);
  return true;
}

template <typename T, typename Op>
__global__ void pad_kernel(const T* __restrict__ in, T* __restrict__ tree, std::size_t n, std::size_t padded) {
  const std::size_t i = global_thread_index();
  if (i < padded) tree[i] = i < n ? in[i] : Op::template identity<T>();
}

template <typename T, typename Op, typename Mapping>
__global__ void up_sweep_kernel(T* tree, std::size_t nodes, int level) {
  Pair p;
  if (!this_thread_pair<Mapping>(nodes, level, p)) return;
  tree[p.right] = Op{}(tree[p.left], tree[p.right]);
}

template <typename T, typename Op, typename Mapping>
__global__ void down_sweep_kernel(T* tree, std::size_t nodes, int level) {
  Pair p;
  if (!this_thread_pair<Mapping>(nodes, level, p)) return;
  // The root (the only node of the top level) holds the total; an exclusive scan starts
  // from the identity instead: the textbook's "clear the last element", done here because
  // cudaMemset cannot write Max's identity.
  const T prefix = nodes == 1 ? Op::template identity<T>() : tree[p.right];
  const T left_total = tree[p.left];
  tree[p.left] = prefix;
  tree[p.right] = Op{}(prefix, left_total);
}

template <typename T, typename Op, bool kExclusive>
__global__ void final_pass_kernel(const T* __restrict__ in, const T* __restrict__ tree, T* __restrict__ out, std::size_t n) {
  const std::size_t i = global_thread_index();
  if (i >= n) return;
  if constexpr (kExclusive) out[i] = tree[i];
  else out[i] = Op{}(tree[i], in[i]);
}

template <typename T>
std::size_t blelloch_scratch_bytes(std::size_t n) {
  return n == 0 ? 0 : blelloch_padded_size(n) * sizeof(T);
}

// One launch for one level: as many threads as the mapping wants for the level's nodes.
template <typename Mapping, typename T>
void launch_level(void (*kernel)(T*, std::size_t, int), T* tree, std::size_t padded, int level, cudaStream_t stream) {
  const std::size_t nodes = padded >> (level + 1);
  const std::size_t threads = Mapping::threads(padded, nodes);
  launch_threads(kernel, threads, Mapping::block(threads), stream, tree, nodes, level);
}

template <typename T, typename Op, bool kExclusive, typename Mapping>
void blelloch_scan(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  const std::size_t padded = blelloch_padded_size(n);
  const int levels = blelloch_levels(n);
  T* tree = static_cast<T*>(sg::scratch_bytes(blelloch_scratch_bytes<T>(n)));

  launch_threads(pad_kernel<T, Op>, padded, kThreads, stream, in, tree, n, padded);
  for (int level = 0; level < levels; ++level) launch_level<Mapping>(up_sweep_kernel<T, Op, Mapping>, tree, padded, level, stream);
  for (int level = levels - 1; level >= 0; --level)
    launch_level<Mapping>(down_sweep_kernel<T, Op, Mapping>, tree, padded, level, stream);
  launch_threads(final_pass_kernel<T, Op, kExclusive>, n, kThreads, stream, in, static_cast<const T*>(tree), out, n);
}

}  // namespace ch02

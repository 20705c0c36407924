// Chapter 06 - scan-then-propagate: the first scan of a whole array, built from block scans.
//
// Where it sits: chapter 05's block scan is tile-local; it extends chapter 05 by a hierarchy
// (the Teaching Kit's "handling large input vectors", Merrill & Grimshaw section 3.4.1, CUDPP):
//
//   up:    level 0  each block scans its tile of the array and writes the tile's total
//          level 1  the totals are an array too: each block scans a tile of totals (exclusive)
//          ...      until a level fits in one tile, which one block scans
//   down:  each level's exclusive scan of totals is the prefix of the tiles below it: a
//          propagate kernel combines tile k's prefix into every element of tile k, level by
//          level back down to the array
//
// Levels: 1 + ceil(log_tile(n)) for n > tile, e.g. 3 for n = 2^26 with 2048-element tiles,
// never capped (course code that scans the block sums with a single block stops working at
// tile^2 = 4 million elements). Launches: one scan per level plus one propagate per level
// but the top.
// Model: work about 3n operator applications (2n in the block scans, n in the propagation);
//        depth O(log_tile(n)) launches of a block scan each; bytes: the array is read and
//        written twice (scan, then propagate), plus 3 elements per tile for the totals:
//        about 4n -> 2.0x copy.
// Run:   ./build/bin/06_scan_then_propagate --n 2^26
#pragma once

#include "01_reduction/block_reduce.cuh"  // Vector16: 16 bytes of T
#include "05_block_scan/tile_local.cuh"
#include "common/check.cuh"
#include "common/device_buffer.cuh"
#include "common/launch.cuh"

#include <cuda_runtime.h>

#include <array>
#include <cstddef>
#include <cstdint>

namespace ch06 {

inline constexpr int kMaxLevels = 24;  // tiles of at least 8 elements: 8^24 > 2^64

// The hierarchy for n elements in tiles of `tile`: level 0 is the array, level l + 1 holds
// one total per tile of level l, and the last level fits in one tile.
struct Levels {
  int count = 0;
  std::array<std::size_t, kMaxLevels> size{};
};

__host__ __device__ inline std::size_t tiles_of(std::size_t n, std::size_t tile) { return (n + tile - 1) / tile; }

inline Levels levels_for(std::size_t n, std::size_t tile) {
  Levels levels;
  if (n == 0) return levels;
  levels.size[levels.count++] = n;
  while (n > tile) {
    n = tiles_of(n, tile);
    levels.size[levels.count++] = n;
  }
  return levels;
}

// One block-scan launch per level, one propagate launch per level but the top.
inline std::size_t launches_for(std::size_t n, std::size_t tile) {
  const int levels = levels_for(n, tile).count;
  return levels == 0 ? 0 : static_cast<std::size_t>(2 * levels - 1);
}

// Bytes moved: every level is read and written by its scan, and read and written again by
// its propagation (all tiles but the first); the scans write one total per tile, and the
// propagation reads one prefix per tile.
inline double bytes_moved(std::size_t n, std::size_t tile, std::size_t element_bytes) {
  const Levels levels = levels_for(n, tile);
  double elements = 0;
  for (int l = 0; l < levels.count; ++l) {
    const double here = static_cast<double>(levels.size[l]);
    elements += 2 * here;  // scan: read and write
    if (l + 1 < levels.count) {
      const double tiles = static_cast<double>(levels.size[l + 1]);
      const double first_tile = static_cast<double>(tile < levels.size[l] ? tile : levels.size[l]);
      elements += tiles + 2 * (here - first_tile) + (tiles - 1);  // totals, propagation, prefixes
    }
  }
  return elements * static_cast<double>(element_bytes);
}

// Device scratch: for every level above the array, its totals and their exclusive scan.
template <typename T>
std::size_t scratch_elements(std::size_t n, std::size_t tile) {
  const Levels levels = levels_for(n, tile);
  std::size_t elements = 0;
  for (int l = 1; l < levels.count; ++l) elements += 2 * levels.size[l];
  return elements;
}

// ---- kernels ------------------------------------------------------------------------------

// Level l, up: block b scans tile b (chapter 05's TileScan) and, through BlockScan's
// tile_prefix hook, writes the tile's total to totals[b]. Nothing comes before a tile yet,
// so the hook returns the identity.
template <typename T, typename Op, bool kExclusive, int kThreads, int kItems>
__global__ void __launch_bounds__(kThreads)
    scan_tiles_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n, T* __restrict__ totals) {
  using Tile = ch05::TileScan<T, kThreads, kItems>;
  __shared__ typename Tile::Storage storage;
  const ch03::Tile tile = ch03::this_block_tile(n, Tile::kTileItems);
  auto record_total = [&](T tile_total) {
    if (threadIdx.x == 0 && totals != nullptr) totals[blockIdx.x] = tile_total;
    return Op::template identity<T>();
  };
  Tile::template scan<kExclusive>(in + tile.begin, out + tile.begin, tile.valid, Op{}, storage, record_total);
}

// Level l, down: block b combines prefixes[b + 1], everything before tile b + 1, into every
// element of tile b + 1 (tile 0 has nothing before it). The prefix comes first: op(prefix, x).
// Full tiles of an aligned array move as 16-byte vectors, "striped" (consecutive threads,
// consecutive vectors: each warp instruction touches 512 contiguous bytes); the last tile and
// unaligned arrays go element by element.
template <typename T, typename Op, int kThreads, int kTileItems>
__global__ void __launch_bounds__(kThreads)
    propagate_kernel(T* __restrict__ data, std::size_t n, const T* __restrict__ prefixes) {
  using Vector = ch01::Vector16<T>;
  const std::size_t tile = static_cast<std::size_t>(blockIdx.x) + 1;
  const std::size_t begin = tile * kTileItems;
  const std::size_t end = begin + kTileItems < n ? begin + kTileItems : n;
  const T prefix = prefixes[tile];
  const Op op{};
  if (end - begin == kTileItems && sg::aligned_16(data)) {
    static_assert(kTileItems % Vector::kCount == 0, "a tile is whole vectors");
    Vector* vectors = reinterpret_cast<Vector*>(data + begin);
#pragma unroll
    for (int v = threadIdx.x; v < kTileItems / Vector::kCount; v += kThreads) {
      Vector x = vectors[v];
#pragma unroll
      for (int j = 0; j < Vector::kCount; ++j) x.items[j] = op(prefix, x.items[j]);
      vectors[v] = x;
    }
  } else {
    for (std::size_t i = begin + threadIdx.x; i < end; i += kThreads) data[i] = op(prefix, data[i]);
  }
}

// ---- the launcher -------------------------------------------------------------------------

template <typename T, int kThreads, int kBytesPerThread>
inline constexpr std::size_t kTileItems = ch05::kTileItems<T, kThreads, kBytesPerThread>;

template <typename T, int kThreads = ch05::kDefaultThreads, int kBytesPerThread = ch05::kDefaultBytesPerThread>
std::size_t scan_then_propagate_scratch_bytes(std::size_t n) {
  return scratch_elements<T>(n, kTileItems<T, kThreads, kBytesPerThread>) * sizeof(T);
}

template <int kThreads, int kBytesPerThread>
double scan_then_propagate_bytes(std::size_t n, std::size_t element_bytes) {
  const std::size_t items = kBytesPerThread / element_bytes > 0 ? kBytesPerThread / element_bytes : 1;
  return bytes_moved(n, kThreads * items, element_bytes);
}

template <typename T, typename Op, bool kExclusive, int kThreads = ch05::kDefaultThreads,
          int kBytesPerThread = ch05::kDefaultBytesPerThread>
void scan_then_propagate(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  constexpr int kItems = ch05::kItemsPerThread<T, kBytesPerThread>;
  constexpr int kTile = kThreads * kItems;
  const Levels levels = levels_for(n, kTile);
  if (levels.count == 0) return;

  // totals[l]: level l's elements (the tile totals of level l - 1); prefixes[l]: their
  // exclusive scan. Level 0 is the array itself: in -> out.
  std::array<T*, kMaxLevels> totals{}, prefixes{};
  T* scratch = static_cast<T*>(sg::scratch_bytes(scratch_elements<T>(n, kTile) * sizeof(T)));
  for (int l = 1; l < levels.count; ++l) {
    totals[l] = scratch;
    prefixes[l] = scratch + levels.size[l];
    scratch += 2 * levels.size[l];
  }

  // up: scan every level, recording tile totals into the level above
  for (int l = 0; l < levels.count; ++l) {
    const unsigned blocks = sg::blocks_for(levels.size[l], kTile);
    T* next_totals = l + 1 < levels.count ? totals[l + 1] : nullptr;
    if (l == 0)
      scan_tiles_kernel<T, Op, kExclusive, kThreads, kItems><<<blocks, kThreads, 0, stream>>>(in, out, n, next_totals);
    else
      scan_tiles_kernel<T, Op, true, kThreads, kItems><<<blocks, kThreads, 0, stream>>>(totals[l], prefixes[l], levels.size[l], next_totals);
    SG_CHECK_LAUNCH();
  }
  // down: from the level below the top back to the array, combine each tile's prefix
  for (int l = levels.count - 2; l >= 0; --l) {
    T* data = l == 0 ? out : prefixes[l];
    const unsigned blocks = sg::blocks_for(levels.size[l], kTile) - 1;  // every tile but the first
    propagate_kernel<T, Op, kThreads, kTile><<<blocks, kThreads, 0, stream>>>(data, levels.size[l], prefixes[l + 1]);
    SG_CHECK_LAUNCH();
  }
}

}  // namespace ch06

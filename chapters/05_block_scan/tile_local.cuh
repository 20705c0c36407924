// Chapter 05 - the coarsened block scan in tile-local mode, and how its tile is moved.
//
// Every variant runs the same kernel: load a tile into registers, BlockScan it, store it.
// What differs is how the tile travels between global memory and registers:
//
//   scalar_loads  each thread reads its kItems consecutive elements one by one. A warp's
//                 load instruction then touches 32 addresses kItems elements apart: many
//                 more memory instructions and transactions than bytes need.
//   vectorised    the same blocked layout read as 16-byte vectors: kItems x 4 bytes per
//                 thread in kItems / 4 instructions, all in flight before the first use.
//   transposed    coalesced "striped" loads (consecutive threads, consecutive elements)
//                 into shared memory, then each thread reads its blocked items from there
//                 (and the reverse for the store): global accesses are perfect, at the
//                 cost of a shared-memory round trip and two more barriers per direction.
//
// Threads per block, bytes per thread and the move are compile-time parameters; the
// chapter's table includes a small sweep of them, and the defaults below are what that
// sweep chose on an H200 (README.md has the table): transposed moves, 256 threads, 32
// bytes (8 int32) per thread, a 2048-element tile at 1.01x copy. Blocked vectors win only
// when a thread moves a single vector (16 bytes per thread: the warp then reads 512
// contiguous bytes per instruction); with two or four vectors per thread each instruction
// touches 32 separate 16-byte pieces 32 or 64 bytes apart, and the scan falls to 1.25x or
// 1.5x copy.
#pragma once

#include "03_hillis_steele/tile.cuh"
#include "05_block_scan/block_scan.cuh"

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

namespace ch05 {

inline constexpr int kDefaultThreads = 256;
inline constexpr int kDefaultBytesPerThread = 32;  // 8 int32 or float, 4 int64 per thread

template <typename T, int kBytesPerThread = kDefaultBytesPerThread>
inline constexpr int kItemsPerThread = kBytesPerThread / static_cast<int>(sizeof(T)) > 0 ? kBytesPerThread / static_cast<int>(sizeof(T)) : 1;

enum class TileMove { kScalar, kVectorised, kTransposed };
inline constexpr TileMove kDefaultMove = TileMove::kTransposed;

// Shared memory for the transposed move: the whole tile, one padding cell every 32
// elements so that both the striped and the blocked accesses spread over the 32 banks.
template <typename T, int kThreads, int kItems>
struct TransposeStorage {
  static constexpr int kTileItems = kThreads * kItems;
  static __device__ __forceinline__ int padded(int j) { return j + j / 32; }
  T cells[kTileItems + kTileItems / 32];
};

template <typename Op, int kThreads, int kItems, typename T>
__device__ __forceinline__ void load_items_transposed(const T* __restrict__ tile_in, int valid, T (&items)[kItems],
                                                      TransposeStorage<T, kThreads, kItems>& staging) {
#pragma unroll
  for (int i = 0; i < kItems; ++i) {  // striped: coalesced across the warp
    const int j = i * kThreads + static_cast<int>(threadIdx.x);
    staging.cells[staging.padded(j)] = j < valid ? tile_in[j] : Op::template identity<T>();
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < kItems; ++i) items[i] = staging.cells[staging.padded(static_cast<int>(threadIdx.x) * kItems + i)];
  __syncthreads();  // the staging area is reused by the store
}

template <int kThreads, int kItems, typename T>
__device__ __forceinline__ void store_items_transposed(T* __restrict__ tile_out, int valid, const T (&items)[kItems],
                                                       TransposeStorage<T, kThreads, kItems>& staging) {
#pragma unroll
  for (int i = 0; i < kItems; ++i) staging.cells[staging.padded(static_cast<int>(threadIdx.x) * kItems + i)] = items[i];
  __syncthreads();
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int j = i * kThreads + static_cast<int>(threadIdx.x);
    if (j < valid) tile_out[j] = staging.cells[staging.padded(j)];
  }
}

struct NoStaging {};

// One tile through the three steps every scan kernel from here on performs: move it into
// registers, BlockScan it, move it back out. Chapters 06-09 differ only in the tile_prefix
// they hand to BlockScan (nothing, a recorded total, a carry, a predecessor's flag, a
// look-back), so this is the one place where a tile is loaded, scanned and stored.
//   in, out   the tile's first element in the input and the output
//   valid     elements of the tile inside the array (the last tile may be partial)
template <typename T, int kThreads, int kItems, TileMove kMove = kDefaultMove>
struct TileScan {
  using Scan = BlockScan<T, kThreads, kItems>;
  static constexpr int kTileItems = Scan::kTileItems;

  struct Storage {
    typename Scan::TempStorage scan;
    std::conditional_t<kMove == TileMove::kTransposed, TransposeStorage<T, kThreads, kItems>, NoStaging> staging;
  };

  template <typename Op>
  __device__ static void load(const T* __restrict__ in, const T* out, int valid, T (&items)[kItems], Storage& storage) {
    if constexpr (kMove == TileMove::kTransposed) {
      (void)out;
      load_items_transposed<Op, kThreads>(in, valid, items, storage.staging);
    } else {
      const bool vectors = kMove == TileMove::kVectorised && can_use_vectors<kThreads, kItems>(in, out, valid);
      load_items<Op>(in, valid, vectors, items);
    }
  }

  __device__ static void store(const T* in, T* __restrict__ out, int valid, const T (&items)[kItems], Storage& storage) {
    if constexpr (kMove == TileMove::kTransposed) {
      (void)in;
      store_items_transposed<kThreads>(out, valid, items, storage.staging);
    } else {
      const bool vectors = kMove == TileMove::kVectorised && can_use_vectors<kThreads, kItems>(in, out, valid);
      store_items(out, valid, vectors, items);
    }
  }

  template <bool kExclusive, typename Op, typename TilePrefix = NoTilePrefix>
  __device__ static void scan(const T* __restrict__ in, T* __restrict__ out, int valid, Op op, Storage& storage,
                              TilePrefix tile_prefix = {}) {
    T items[kItems];
    load<Op>(in, out, valid, items, storage);
    Scan::template scan<kExclusive>(items, op, storage.scan, tile_prefix);
    store(in, out, valid, items, storage);
  }
};

template <typename T, typename Op, bool kExclusive, TileMove kMove, int kThreads, int kItems>
__global__ void __launch_bounds__(kThreads) tile_local_scan_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  using Tile = TileScan<T, kThreads, kItems, kMove>;
  __shared__ typename Tile::Storage storage;
  const ch03::Tile tile = ch03::this_block_tile(n, Tile::kTileItems);
  Tile::template scan<kExclusive>(in + tile.begin, out + tile.begin, tile.valid, Op{}, storage);
}

template <typename T, typename Op, bool kExclusive, TileMove kMove = kDefaultMove, int kThreads = kDefaultThreads,
          int kBytesPerThread = kDefaultBytesPerThread>
void tile_local_scan(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  constexpr int kItems = kItemsPerThread<T, kBytesPerThread>;
  ch03::launch_tile_local(tile_local_scan_kernel<T, Op, kExclusive, kMove, kThreads, kItems>, kThreads, kThreads * kItems, 0, in,
                          out, n, stream);
}

template <typename T, int kThreads = kDefaultThreads, int kBytesPerThread = kDefaultBytesPerThread>
inline constexpr std::size_t kTileItems = static_cast<std::size_t>(kThreads) * kItemsPerThread<T, kBytesPerThread>;

}  // namespace ch05

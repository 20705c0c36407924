// Chapter 03 - Hillis-Steele: the tile-local skeleton shared by the shared-memory block
// scans of chapters 03 and 04.
//
// A block scan alone is too small to time, so every block-scan chapter runs in
// "tile-local" mode: block b scans tile b of the array, [b * tile, (b + 1) * tile), on its
// own, and the output restarts at every tile boundary (the CPU reference does the same with
// tile > 0). With n <= tile this is simply a scan of one tile; at large n the bandwidth of a
// tile-local scan shows what the block algorithm itself costs next to a copy. Chapter 06
// turns tile-local scans into a scan of the whole array.
//
// The skeleton every variant shares:
//   load_tile      global -> shared, coalesced (consecutive threads, consecutive elements);
//                  the missing part of the last tile is padded with the identity, so the
//                  scan network never needs a bounds check and Max works as well as Sum
//   (the variant's scan of the tile in shared memory)
//   store_tile     shared -> global, inclusive as it is, or exclusive by shifting one place
//
// An index map lets a variant keep element j at another shared-memory address (chapter
// 04's padded layout stores element j at j + j / 32).
#pragma once

#include "common/check.cuh"
#include "common/launch.cuh"

#include <cuda_runtime.h>

#include <cstddef>

namespace ch03 {

// Element j of the tile lives at shared[j].
struct Contiguous {
  __device__ int operator()(int j) const { return j; }
};

// The part of the array this block owns: `valid` elements starting at `begin`.
struct Tile {
  std::size_t begin;
  int valid;
};

__device__ __forceinline__ Tile this_block_tile(std::size_t n, int tile_size) {
  const std::size_t begin = static_cast<std::size_t>(blockIdx.x) * tile_size;
  const std::size_t left = n - begin;  // begin < n: the grid has exactly one block per tile
  return {begin, left < static_cast<std::size_t>(tile_size) ? static_cast<int>(left) : tile_size};
}

template <typename T, typename Op, typename Index = Contiguous>
__device__ void load_tile(const T* __restrict__ in, Tile tile, int tile_size, T* shared, Index index = {}) {
  for (int j = threadIdx.x; j < tile_size; j += blockDim.x)
    shared[index(j)] = j < tile.valid ? in[tile.begin + j] : Op::template identity<T>();
}

// Writes the scanned tile. kExclusive shifts it one place: out[j] = scan[j - 1], and the
// tile's first element gets the identity.
template <bool kExclusive, typename T, typename Op, typename Index = Contiguous>
__device__ void store_tile(const T* shared, Tile tile, T* __restrict__ out, Index index = {}) {
  for (int j = threadIdx.x; j < tile.valid; j += blockDim.x) {
    if constexpr (kExclusive) out[tile.begin + j] = j == 0 ? Op::template identity<T>() : shared[index(j - 1)];
    else out[tile.begin + j] = shared[index(j)];
  }
}

// Launches one block of `threads` per tile of `tile_size` elements.
template <typename Kernel, typename T>
void launch_tile_local(Kernel kernel, int threads, int tile_size, std::size_t shared_bytes, const T* in, T* out, std::size_t n,
                       cudaStream_t stream) {
  if (n == 0) return;
  kernel<<<sg::blocks_for(n, tile_size), threads, shared_bytes, stream>>>(in, out, n);
  SG_CHECK_LAUNCH();
}

}  // namespace ch03

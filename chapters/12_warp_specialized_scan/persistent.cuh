// Chapter 12, step 1 - a persistent grid: chapter 09's v4, with as many blocks as fit on the GPU
// at once, each taking tile after tile.
//
// Chapter 09 launches one block per tile; when a block ends, the hardware starts the next one.
// Here the grid is sized to the GPU (SMs x resident blocks per SM) and every block loops: draw
// a ticket, scan that tile with chapter 09's tile and warp look-back, draw again. Nothing else
// changes, so this step measures what launching blocks cost chapter 09, and gives the next
// steps a block that lives long enough to keep a pipeline of tiles in flight.
#pragma once

#include "05_block_scan/tile_local.cuh"
#include "09_decoupled_lookback/tuned.cuh"
#include "12_warp_specialized_scan/pipeline.cuh"
#include "common/launch.cuh"
#include "common/watchdog.cuh"

#include <cuda_runtime.h>

#include <cstddef>

namespace ch12 {

template <typename T, typename Op, bool kExclusive, typename Config, int kItems>
__global__ void __launch_bounds__(Config::kThreads, Config::kMinBlocks)
    persistent_scan_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n, ch09::EpochStatus<T> status,
                           PersistentTicket ticket, sg::Watchdog dog) {
  using Tile = ch05::TileScan<T, Config::kThreads, kItems>;
  using LookBack = ch09::WarpLookBack<Config::kInitialDelayNs, Config::kPollDelayNs>;
  __shared__ typename Tile::Storage storage;
  __shared__ unsigned long long tile_index;
  const Op op{};
  for (;;) {
    if (threadIdx.x == 0) tile_index = ticket.draw();
    __syncthreads();
    const std::size_t tile = tile_index;
    if (tile >= ticket.tiles) return;
    const std::size_t begin = tile * Tile::kTileItems;
    const int valid = static_cast<int>(n - begin < Tile::kTileItems ? n - begin : Tile::kTileItems);
    auto look_back = [&](T tile_total) { return LookBack::exclusive_prefix(status, tile, tile_total, op, dog, true); };
    Tile::template scan<kExclusive>(in + begin, out + begin, valid, op, storage, look_back);
    __syncthreads();  // the storage and tile_index are reused by the next tile
  }
}

// Chapter 09's tuned tile and sleeps (ch09::Tuned), without its L2 prefetch: a block that
// loops has no "own tile" to prefetch before its ticket.
using PersistentConfig = ch09::Tuned;

template <typename T, typename Op, bool kExclusive>
void persistent_scan(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  using Config = PersistentConfig;
  constexpr int kItems = ch05::kItemsPerThread<T, Config::kBytesPerThread>;
  constexpr std::size_t kTile = ch09::kTunedTileItems<T, Config>;
  constexpr auto kernel = persistent_scan_kernel<T, Op, kExclusive, Config, kItems>;
  const std::size_t tiles = (n + kTile - 1) / kTile;
  static const unsigned resident = sg::resident_blocks(kernel, Config::kThreads);
  const ch09::EpochLease lease = ch09::lease_epoch_words<sizeof(ch08::PackedWord<T>)>(tiles, stream);
  const ch09::EpochStatus<T> status{static_cast<ch08::PackedWord<T>*>(lease.words), lease.epoch};
  const unsigned grid = persistent_grid(tiles, resident);
  kernel<<<grid, Config::kThreads, 0, stream>>>(in, out, n, status, PersistentTicket{lease.ticket, tiles}, sg::watchdog());
  SG_CHECK_LAUNCH();
}

}  // namespace ch12

// Chapter 08 - the chained scan: a single pass over the array, and a serial chain of handoffs.
//
// Where it sits: chapter 07 reads the array twice; a scan must read it at least once and
// write it once. This chapter extends chapter 05's block scan by a message between blocks
// (the Teaching Kit's "streaming" scan; the "chained scan" that Willén & Broløs and Liu (2024)
// start from):
//
//   1. take a ticket: tiles are numbered in the order blocks start (an atomic counter)
//   2. load the tile and reduce it (BlockScan, up to its tile_prefix hook)
//   3. one thread waits until the previous tile has published its inclusive prefix P,
//      publishes its own, P' = op(P, tile total), and hands P to BlockScan
//   4. rescan the tile seeded with P and store it
//
// Step 3 is a chain: tile t can publish only after tile t - 1 has, so the kernel takes at least
// (tiles x handoff latency), where the handoff is one store becoming visible to another SM and
// that SM noticing it (a few hundred nanoseconds to a microsecond). Loading, reducing and
// storing overlap with the chain; the chain itself does not overlap with anything.
// Model: work 2n operator applications; depth = tiles handoffs in series; bytes read n +
//        write n + a status word per tile -> 1.0x copy, *if* the chain were free. It is not:
//        time >= tiles x handoff latency, which at 2^26 elements is tens of times a copy.
//
// Why a ticket and not blockIdx.x: the programming model promises nothing about the order in
// which blocks start, or that a block which has not started will ever start while the
// resident ones spin. With tiles in blockIdx.x order, a scheduler that happened to start the
// blocks of the last tiles first would fill the GPU with blocks waiting for tiles that
// cannot start: a deadlock (the Teaching Kit's "this code is susceptible to deadlock!"). With
// a ticket, tile t is always taken by a block that started after the blocks of tiles 0..t-1,
// all of which are running or done, so every wait ends. demos.cuh emulates the bad scheduler.
//
// Every wait is bounded (common/watchdog.cuh): a wait that never ends becomes an error that
// names the tile, never a hung GPU.
//
// Run: ./build/bin/08_chained_scan --n 2^24
#pragma once

#include "05_block_scan/tile_local.cuh"
#include "08_chained_scan/tile_status.cuh"
#include "common/check.cuh"
#include "common/device_buffer.cuh"
#include "common/launch.cuh"
#include "common/watchdog.cuh"

#include <cuda_runtime.h>

#include <cstddef>

namespace ch08 {

enum class TileOrder { kTicket, kBlockIndex, kReversedBlockIndex };

// Which tile this block scans: the next ticket, or (for the demo) the block index, forwards or
// backwards. Thread 0 takes it, the barrier hands it to the block.
template <TileOrder kOrder>
__device__ __forceinline__ std::size_t take_tile(unsigned long long* ticket, unsigned long long& shared_tile) {
  if (threadIdx.x == 0) {
    if constexpr (kOrder == TileOrder::kTicket) shared_tile = atomicAdd(ticket, 1ull);
    else if constexpr (kOrder == TileOrder::kBlockIndex) shared_tile = blockIdx.x;
    else shared_tile = gridDim.x - 1ull - blockIdx.x;
  }
  __syncthreads();
  return static_cast<std::size_t>(shared_tile);
}

template <typename T, typename Op, bool kExclusive, typename Status, TileOrder kOrder, int kThreads, int kItems>
__global__ void __launch_bounds__(kThreads) chained_scan_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n,
                                                                Status status, unsigned long long* ticket, sg::Watchdog dog) {
  using Tile = ch05::TileScan<T, kThreads, kItems>;
  __shared__ typename Tile::Storage storage;
  __shared__ unsigned long long tile_index;
  const std::size_t tile = take_tile<kOrder>(ticket, tile_index);
  const std::size_t begin = tile * Tile::kTileItems;
  const int valid = static_cast<int>(n - begin < Tile::kTileItems ? n - begin : Tile::kTileItems);
  const Op op{};

  // BlockScan calls this in warp 0 once the tile's total is known: lane 0 waits for tile - 1,
  // publishes this tile's inclusive prefix and hands what came before to the whole warp.
  auto wait_for_predecessor = [&](T tile_total) {
    T before = Op::template identity<T>();
    if (ch03::lane_id() == 0) {
      if (tile > 0) {
        sg::WaitBudget budget(dog);
        Observed<T> seen = status.poll(tile - 1);
        while (seen.status != kInclusive && budget.keep_waiting(tile, tile - 1)) seen = status.poll(tile - 1);
        before = seen.value;  // after a give-up: garbage, and the launch is reported as failed
      }
      status.publish(tile, kInclusive, op(before, tile_total));
    }
    return __shfl_sync(ch03::kFullWarp, before, 0);
  };
  Tile::template scan<kExclusive>(in + begin, out + begin, valid, op, storage, wait_for_predecessor);
}

// ---- the launcher -----------------------------------------------------------------------------

inline constexpr int kDefaultThreads = 512;
inline constexpr int kDefaultBytesPerThread = 64;  // 16 int32: 8192-element tiles, the most a 48 KiB staging area holds

template <typename T, int kThreads, int kBytesPerThread>
inline constexpr std::size_t kTileItems = ch05::kTileItems<T, kThreads, kBytesPerThread>;

// Scratch: the ticket (32 bytes, keeping the status 16-byte aligned), then the tile status.
inline constexpr std::size_t kTicketBytes = 32;

template <typename T, template <typename> class Status, int kThreads = kDefaultThreads, int kBytesPerThread = kDefaultBytesPerThread>
std::size_t chained_scan_scratch_bytes(std::size_t n) {
  const std::size_t tiles = (n + kTileItems<T, kThreads, kBytesPerThread> - 1) / kTileItems<T, kThreads, kBytesPerThread>;
  return kTicketBytes + Status<T>::bytes(tiles);
}

// The launch itself, with the tile order and the watchdog as parameters (the demos change both).
template <typename T, typename Op, bool kExclusive, template <typename> class Status, TileOrder kOrder, int kThreads,
          int kBytesPerThread>
void launch_chained_scan(const T* in, T* out, std::size_t n, cudaStream_t stream, sg::Watchdog dog) {
  if (n == 0) return;
  constexpr int kItems = ch05::kItemsPerThread<T, kBytesPerThread>;
  constexpr std::size_t kTile = kTileItems<T, kThreads, kBytesPerThread>;
  const std::size_t tiles = (n + kTile - 1) / kTile;
  unsigned char* scratch =
      static_cast<unsigned char*>(sg::scratch_bytes(chained_scan_scratch_bytes<T, Status, kThreads, kBytesPerThread>(n)));
  // Every launch starts from a clean slate: ticket 0, every tile X. (Chapter 09's last
  // version does without this second operation.)
  SG_CUDA(cudaMemsetAsync(scratch, 0, kTicketBytes + Status<T>::bytes_to_clear(tiles), stream));
  Status<T> status{};
  status.point_into(scratch + kTicketBytes, tiles);
  chained_scan_kernel<T, Op, kExclusive, Status<T>, kOrder, kThreads, kItems><<<sg::blocks_for(tiles, 1), kThreads, 0, stream>>>(
      in, out, n, status, reinterpret_cast<unsigned long long*>(scratch), dog);
  SG_CHECK_LAUNCH();
}

template <typename T, typename Op, bool kExclusive, template <typename> class Status, int kThreads = kDefaultThreads,
          int kBytesPerThread = kDefaultBytesPerThread>
void chained_scan(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  launch_chained_scan<T, Op, kExclusive, Status, TileOrder::kTicket, kThreads, kBytesPerThread>(in, out, n, stream, sg::watchdog());
}

}  // namespace ch08

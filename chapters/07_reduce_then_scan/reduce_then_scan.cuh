// Chapter 07 - reduce-then-scan: Merrill & Grimshaw's two-level streaming scan.
//
// Where it sits: chapter 06 scans the array, writes it, and then reads and writes it again
// to propagate the tile prefixes: about 4n. This chapter extends chapter 06 by *not writing
// anything on the way up*: the first pass only reduces, the second scans with the prefix it
// already knows. It needs a fixed grid of C blocks (chapter 01's fixed-grid reduction):
//
//   upsweep    C blocks; block b reduces its stripe, a contiguous run of whole tiles
//              (chapter 01's even_share), to partials[b]                      read n
//   spine      1 block scans the C partials (exclusive) into seeds             ~3C
//   downsweep  C blocks; block b re-reads its stripe tile by tile and scans it, seeded with
//              seeds[b] and carrying the running total from tile to tile
//              through BlockScan's tile_prefix hook                           read n, write n
//
// Three launches whatever n is (one when n fits one stripe). The leftover elements of a last
// partial tile are simply the end of the last non-empty stripe: every load and store of a
// tile is guarded by its `valid` count, so no block needs a special case.
// Model: work about 3n operator applications (n upsweep, 2n downsweep); depth two passes over
//        a stripe (n / C elements) plus a scan of C; bytes read n + read n + write n = 3n,
//        plus 3C for the spine -> 1.5x copy.
//
// Two device functions do all the work, block by block: reduce_range and scan_range below. The C
// partials are combined strictly in order, tile by tile and stripe by stripe, so any
// associative operator works (the upsweep's warp scans and BlockScan keep the order; chapter
// 01's butterfly would not).
//
// Beyond the model (the l2 variant): if the second read of a stripe came from the L2 cache
// instead of DRAM, the scan would move 2n like a single pass. l2_streaming_scan cuts the array
// into chunks small enough that two of them fit in L2, and runs one launch per chunk that
// scans chunk k - 1 (re-read from L2) and reduces chunk k (read from DRAM); the spine of each
// chunk is scanned by the last block to finish its reduction. DRAM traffic about 2n; the
// price is one launch per chunk.
//
// Run: ./build/bin/07_reduce_then_scan --n 2^26
#pragma once

#include "01_reduction/fixed_grid.cuh"  // even_share: stripes of whole tiles
#include "05_block_scan/tile_local.cuh"
#include "common/check.cuh"
#include "common/device_buffer.cuh"
#include "common/launch.cuh"

#include <cuda/atomic>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

namespace ch07 {

inline constexpr int kThreads = ch05::kDefaultThreads;                 // 256
inline constexpr int kBytesPerThread = ch05::kDefaultBytesPerThread;   // 32: 8 int32, 4 int64

template <typename T>
inline constexpr int kItems = ch05::kItemsPerThread<T, kBytesPerThread>;
template <typename T>
using TileOf = ch05::TileScan<T, kThreads, kItems<T>>;
template <typename T>
inline constexpr std::size_t kTileItems = static_cast<std::size_t>(TileOf<T>::kTileItems);

// ---- the two building blocks: one block over one range --------------------------------------

// The reduction of in[begin, end), in order, by one block. Valid in warp 0.
//
// The upsweep only reads, so it should run at half a copy's time, like chapter 01's fixed-grid
// reduction. That one strides each thread through the range and combines out of order; here
// the order matters, so each warp takes its own contiguous part of the range and streams
// through it in rows of 32 16-byte vectors (one per lane: 512 contiguous bytes per load
// instruction), kInFlight rows at a time, each row combined in order by a warp scan. No
// barrier until the warps' totals meet at the end. (Arrays that are not 16-byte aligned,
// and the last partial row, go tile by tile through chapter 05's TileScan and
// BlockScan::reduce instead: slower, and just as ordered.)
template <typename T, typename Op>
__device__ T reduce_tiles(const T* __restrict__ in, std::size_t begin, std::size_t end, Op op, typename TileOf<T>::Storage& storage) {
  using Tile = TileOf<T>;
  T running = Op::template identity<T>();
  for (std::size_t first = begin; first < end; first += Tile::kTileItems) {
    const int valid = static_cast<int>(end - first < Tile::kTileItems ? end - first : Tile::kTileItems);
    T items[kItems<T>];
    Tile::template load<Op>(in + first, in + first, valid, items, storage);
    running = op(running, Tile::Scan::reduce(items, op, storage.scan));
    __syncthreads();  // the next tile's reduce writes storage.scan, which warp 0 has just read
  }
  return running;
}

inline constexpr int kInFlight = 4;  // rows of 16-byte loads in flight per warp

template <typename T, typename Op>
__device__ T reduce_range(const T* __restrict__ in, std::size_t begin, std::size_t end, Op op, typename TileOf<T>::Storage& storage) {
  using Vector = ch01::Vector16<T>;
  constexpr int kWarps = kThreads / ch03::kWarpSize;
  constexpr std::size_t kRowItems = ch03::kWarpSize * Vector::kCount;  // 128 int32, 64 int64
  if (!sg::aligned_16(in + begin)) return reduce_tiles(in, begin, end, op, storage);

  const std::size_t rows = (end - begin) / kRowItems;
  const int warp = static_cast<int>(threadIdx.x) / ch03::kWarpSize, lane = ch03::lane_id();
  // warp w: rows [w rows / kWarps, (w + 1) rows / kWarps), contiguous and in warp order
  const std::size_t first_row = rows * warp / kWarps, last_row = rows * (warp + 1) / kWarps;
  const Vector* __restrict__ vectors = reinterpret_cast<const Vector*>(in + begin);
  T running = Op::template identity<T>();
  auto add_row = [&](const Vector& v) {  // this lane's vector, then the row in lane order
    const T row = ch03::warp_broadcast_last(ch03::warp_inclusive_scan(ch01::reduce_vector(v, op), op));
    running = op(running, row);
  };
  std::size_t row = first_row;
  for (; row + kInFlight <= last_row; row += kInFlight) {
    Vector v[kInFlight];
#pragma unroll
    for (int k = 0; k < kInFlight; ++k) v[k] = vectors[(row + k) * ch03::kWarpSize + lane];  // all in flight first
#pragma unroll
    for (int k = 0; k < kInFlight; ++k) add_row(v[k]);
  }
  for (; row < last_row; ++row) add_row(vectors[row * ch03::kWarpSize + lane]);

  // the warps' totals, in warp order, then the leftover part row (after every warp's rows)
  __shared__ T warp_totals[kWarps];
  if (lane == 0) warp_totals[warp] = running;
  __syncthreads();
  T total = Op::template identity<T>();
  if (warp == 0) {
    total = ch03::warp_broadcast_last(ch03::warp_inclusive_scan(lane < kWarps ? warp_totals[lane] : total, op));
    const std::size_t tail = begin + rows * kRowItems;
    const T leftover = tail + lane < end ? in[tail + lane] : Op::template identity<T>();  // fewer than 128 elements
    T tail_total = ch03::warp_broadcast_last(ch03::warp_inclusive_scan(leftover, op));
    if (tail + ch03::kWarpSize < end)  // more than one warp's worth: the rest, 32 at a time
      for (std::size_t first = tail + ch03::kWarpSize; first < end; first += ch03::kWarpSize) {
        const T more = first + lane < end ? in[first + lane] : Op::template identity<T>();
        tail_total = op(tail_total, ch03::warp_broadcast_last(ch03::warp_inclusive_scan(more, op)));
      }
    total = op(total, tail_total);
  }
  __syncthreads();  // warp_totals is reused by the next call
  return total;
}

// Scans in[begin, end) into out[begin, end) by one block, seeded with `carry` (everything
// before `begin`): tile by tile, the tile_prefix hook hands BlockScan the carry and adds the
// tile's total to it. Returns the carry after the range (the seed combined with the whole
// range), valid in warp 0.
template <bool kExclusive, typename T, typename Op>
__device__ T scan_range(const T* __restrict__ in, T* __restrict__ out, std::size_t begin, std::size_t end, T carry, Op op,
                        typename TileOf<T>::Storage& storage) {
  using Tile = TileOf<T>;
  auto carry_in = [&](T tile_total) {  // called by warp 0 only, every lane with the same total
    const T before = carry;
    carry = op(carry, tile_total);
    return before;
  };
  for (std::size_t first = begin; first < end; first += Tile::kTileItems) {
    const int valid = static_cast<int>(end - first < Tile::kTileItems ? end - first : Tile::kTileItems);
    Tile::template scan<kExclusive>(in + first, out + first, valid, op, storage, carry_in);
    __syncthreads();  // the next tile's load reuses the staging area this tile's store reads
  }
  return carry;
}

// ---- the three launches ---------------------------------------------------------------------

template <typename T, typename Op>
__global__ void __launch_bounds__(kThreads) reduce_stripes_kernel(const T* __restrict__ in, std::size_t n, T* __restrict__ partials) {
  __shared__ typename TileOf<T>::Storage storage;
  const ch01::Range stripe = ch01::even_share(n, kTileItems<T>, gridDim.x, blockIdx.x);
  const T total = reduce_range(in, stripe.begin, stripe.end, Op{}, storage);
  if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

// Block b scans its stripe seeded with seeds[b] (or the identity when seeds is null). With one
// block this is a plain scan of the whole range: the spine, or the whole problem when it is small.
template <typename T, typename Op, bool kExclusive>
__global__ void __launch_bounds__(kThreads)
    scan_stripes_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n, const T* __restrict__ seeds) {
  __shared__ typename TileOf<T>::Storage storage;
  const ch01::Range stripe = ch01::even_share(n, kTileItems<T>, gridDim.x, blockIdx.x);
  const T seed = seeds != nullptr ? seeds[blockIdx.x] : Op::template identity<T>();
  scan_range<kExclusive>(in, out, stripe.begin, stripe.end, seed, Op{}, storage);
}

// C: kBlocksPerSM blocks per SM, or with kBlocksPerSM = 0 as many blocks as fit on the GPU at
// once (the occupancy calculator's answer for the heavier of the two kernels, times the SMs);
// never more blocks than tiles.
inline constexpr int kResident = 0;

template <typename T, typename Op, int kBlocksPerSM>
unsigned grid_size(std::size_t n) {
  static const unsigned target = [] {
    if (kBlocksPerSM == kResident) {
      const unsigned up = sg::resident_blocks(reduce_stripes_kernel<T, Op>, kThreads);
      const unsigned down = sg::resident_blocks(scan_stripes_kernel<T, Op, false>, kThreads);
      return std::min(up, down);
    }
    int device = 0, sms = 0;
    SG_CUDA(cudaGetDevice(&device));
    SG_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return static_cast<unsigned>(sms * kBlocksPerSM);
  }();
  const std::size_t tiles = (n + kTileItems<T> - 1) / kTileItems<T>;
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(tiles, target)));
}

template <typename T, typename Op, int kBlocksPerSM>
std::size_t reduce_then_scan_scratch_bytes(std::size_t n) {
  const unsigned blocks = grid_size<T, Op, kBlocksPerSM>(n);
  return blocks > 1 ? 2 * blocks * sizeof(T) : 0;
}

template <typename T, typename Op, bool kExclusive, int kBlocksPerSM = kResident>
void reduce_then_scan(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  const unsigned blocks = grid_size<T, Op, kBlocksPerSM>(n);
  if (blocks == 1) {  // one stripe: the downsweep alone, unseeded
    scan_stripes_kernel<T, Op, kExclusive><<<1, kThreads, 0, stream>>>(in, out, n, nullptr);
    SG_CHECK_LAUNCH();
    return;
  }
  T* partials = static_cast<T*>(sg::scratch_bytes(2 * blocks * sizeof(T)));
  T* seeds = partials + blocks;
  reduce_stripes_kernel<T, Op><<<blocks, kThreads, 0, stream>>>(in, n, partials);
  SG_CHECK_LAUNCH();
  scan_stripes_kernel<T, Op, true><<<1, kThreads, 0, stream>>>(partials, seeds, blocks, nullptr);
  SG_CHECK_LAUNCH();
  scan_stripes_kernel<T, Op, kExclusive><<<blocks, kThreads, 0, stream>>>(in, out, n, seeds);
  SG_CHECK_LAUNCH();
}

// ---- beyond the model: re-reading from L2 ----------------------------------------------------
//
// Chunks of kChunkBytes; launch k (k = 0 .. chunks) does, in every block b:
//   1. reduce stripe b of chunk k (from DRAM) into partials[k % 2][b]; the last block to
//      finish scans partials[k % 2] seeded with the carry of all chunks before k, giving the
//      seeds of chunk k and the carry after it;
//   2. scan stripe b of chunk k - 1 (the launch before read it: it is in L2), seeded with
//      seeds[(k - 1) % 2][b].
// The parity slots let launch k read chunk k - 1's seeds while it writes chunk k's.
template <typename T>
struct StreamingState {
  T* partials[2];
  T* seeds[2];
  T* carry;                 // carry[k % 2]: everything before chunk k
  unsigned int* finished;   // blocks done with step 1 in this launch (reset by the last one)
};

// The spine inside a launch: the last block scans partials that other blocks of the same
// launch wrote, so it reads them with volatile loads (through L2), never through the
// read-only cache a `const T* __restrict__` load may use, which does not see writes made
// during the launch. C is small: a plain blocked load is fine.
template <typename T, typename Op>
__device__ T scan_spine(const T* partials, T* seeds, unsigned count, T carry, Op op, typename TileOf<T>::Storage& storage) {
  using Scan = typename TileOf<T>::Scan;
  auto carry_in = [&](T tile_total) {
    const T before = carry;
    carry = op(carry, tile_total);
    return before;
  };
  for (unsigned first = 0; first < count; first += Scan::kTileItems) {
    T items[kItems<T>];
#pragma unroll
    for (int i = 0; i < kItems<T>; ++i) {
      const unsigned j = first + threadIdx.x * kItems<T> + i;
      items[i] = j < count ? *static_cast<const volatile T*>(partials + j) : Op::template identity<T>();
    }
    Scan::template scan<true>(items, op, storage.scan, carry_in);
#pragma unroll
    for (int i = 0; i < kItems<T>; ++i) {
      const unsigned j = first + threadIdx.x * kItems<T> + i;
      if (j < count) seeds[j] = items[i];
    }
    __syncthreads();
  }
  return carry;
}

template <typename T, typename Op, bool kExclusive>
__global__ void __launch_bounds__(kThreads)
    l2_streaming_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n, std::size_t chunk_items, std::size_t k,
                        std::size_t chunks, StreamingState<T> state) {
  __shared__ typename TileOf<T>::Storage storage;
  __shared__ bool last_block;
  const Op op{};
  if (k < chunks) {
    const std::size_t chunk_begin = k * chunk_items;
    const std::size_t chunk_size = std::min(chunk_items, n - chunk_begin);
    const ch01::Range stripe = ch01::even_share(chunk_size, kTileItems<T>, gridDim.x, blockIdx.x);
    const T total = reduce_range(in + chunk_begin, stripe.begin, stripe.end, op, storage);
    if (threadIdx.x == 0) {
      state.partials[k % 2][blockIdx.x] = total;
      cuda::atomic_ref<unsigned int, cuda::thread_scope_device> finished(*state.finished);
      last_block = finished.fetch_add(1, cuda::memory_order_acq_rel) == gridDim.x - 1;  // release my partial, acquire theirs
    }
    __syncthreads();
    if (last_block) {  // the spine of chunk k
      __threadfence();
      const T carry_before = k == 0 ? Op::template identity<T>() : state.carry[k % 2];
      const T carry_after = scan_spine(state.partials[k % 2], state.seeds[k % 2], gridDim.x, carry_before, op, storage);
      if (threadIdx.x == 0) {
        state.carry[(k + 1) % 2] = carry_after;
        *state.finished = 0;  // for the next launch
      }
    }
  }
  if (k >= 1) {
    const std::size_t chunk_begin = (k - 1) * chunk_items;
    const std::size_t chunk_size = std::min(chunk_items, n - chunk_begin);
    const ch01::Range stripe = ch01::even_share(chunk_size, kTileItems<T>, gridDim.x, blockIdx.x);
    scan_range<kExclusive>(in + chunk_begin, out + chunk_begin, stripe.begin, stripe.end, state.seeds[(k - 1) % 2][blockIdx.x], op,
                           storage);
  }
}

template <typename T, typename Op>
unsigned l2_grid_size() {
  static const unsigned blocks = sg::resident_blocks(l2_streaming_kernel<T, Op, false>, kThreads);
  return blocks;
}

template <typename T, typename Op, int kChunkMiB>
std::size_t l2_streaming_scratch_bytes(std::size_t) {
  return (4 * static_cast<std::size_t>(l2_grid_size<T, Op>()) + 2) * sizeof(T) + 16;
}

template <typename T, typename Op, bool kExclusive, int kChunkMiB>
void l2_streaming_scan(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  const std::size_t chunk_items = (static_cast<std::size_t>(kChunkMiB) << 20) / sizeof(T);
  const std::size_t chunks = (n + chunk_items - 1) / chunk_items;
  const unsigned blocks = static_cast<unsigned>(
      std::min<std::size_t>(l2_grid_size<T, Op>(), (std::min(n, chunk_items) + kTileItems<T> - 1) / kTileItems<T>));
  unsigned char* scratch = static_cast<unsigned char*>(sg::scratch_bytes(l2_streaming_scratch_bytes<T, Op, kChunkMiB>(n)));
  StreamingState<T> state;
  T* values = reinterpret_cast<T*>(scratch + 16);
  state.finished = reinterpret_cast<unsigned int*>(scratch);
  state.partials[0] = values;
  state.partials[1] = values + blocks;
  state.seeds[0] = values + 2 * blocks;
  state.seeds[1] = values + 3 * blocks;
  state.carry = values + 4 * blocks;
  SG_CUDA(cudaMemsetAsync(state.finished, 0, sizeof(unsigned int), stream));  // the counter's only initialisation per scan
  for (std::size_t k = 0; k <= chunks; ++k) {
    l2_streaming_kernel<T, Op, kExclusive><<<blocks, kThreads, 0, stream>>>(in, out, n, chunk_items, k, chunks, state);
    SG_CHECK_LAUNCH();
  }
}

}  // namespace ch07

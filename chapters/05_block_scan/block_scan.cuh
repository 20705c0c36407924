// Chapter 05 - the coarsened, three-phase block scan: the block scan later chapters use.
//
// Where it sits: chapters 03 and 04 scanned one element (or two) per thread through shared
// memory, paying a barrier per tree level and idling most threads at most levels. This
// chapter extends chapter 03's warp scan by *thread coarsening* (the Teaching Kit's
// "thread granularity adjustment", Merrill & Grimshaw's reduce-then-scan inside a tile):
//
//   1. each thread loads kItems consecutive elements into registers (16-byte vectors when
//      aligned) and reduces them serially                              (kItems - 1 ops)
//   2. the thread totals are scanned with chapter 03's warp shuffle scan, and the warp
//      totals once more by one warp, through 2 barriers                (log-depth, tiny)
//   3. each thread rescans its items serially, starting from the prefix of everything
//      before it, and stores them                                      (kItems ops)
//
// Model: work about 2n operations (n - 1 serial reduce, n rescan, a few per warp), depth
// 2 kItems + 2 log2(32) + 2 barriers. Bytes: tile-local mode reads n and writes n (model
// 1.0x copy); every element is read and written once in global memory, and BlockScan
// itself keeps the items in registers (one value per warp goes through shared memory).
//
// Run: ./build/bin/05_block_scan --n 2^26
//
// BlockScan is the block-wide building block of chapters 06-09: its tile_prefix hook is
// where a tile learns what comes before it (nothing, in this chapter's tile-local mode;
// a scanned block sum, a predecessor's flag, or a decoupled look-back later).
#pragma once

#include "03_hillis_steele/warp_scan.cuh"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ch05 {

// The tile prefix of a scan that restarts at every tile: nothing comes before a tile.
struct NoTilePrefix {};

// How BlockScan's threads wait for each other: the whole block (__syncthreads). A block whose
// warps do different jobs (chapter 12) scans with some of its warps only, and passes a
// barrier over just those.
struct WholeBlockBarrier {
  __device__ static void sync() { __syncthreads(); }
};

// kThreads threads scan a tile of kThreads x kItems elements held in registers in the
// "blocked" arrangement: thread t holds elements [t * kItems, (t + 1) * kItems). The
// scanning threads are threads 0 .. kThreads - 1 of the block.
template <typename T, int kThreads, int kItems, typename Barrier = WholeBlockBarrier>
struct BlockScan {
  static constexpr int kWarps = kThreads / ch03::kWarpSize;
  static constexpr int kTileItems = kThreads * kItems;
  static_assert(kThreads % ch03::kWarpSize == 0 && kWarps <= ch03::kWarpSize, "one warp scans the warp totals");

  struct TempStorage {
    T warp_prefix[kWarps];  // what comes before each warp (the tile's prefix included)
  };

  // Phase 1: my items, reduced serially in order.
  template <typename Op>
  __device__ static T thread_reduce(const T (&items)[kItems], Op op) {
    T total = items[0];
#pragma unroll
    for (int i = 1; i < kItems; ++i) total = op(total, items[i]);
    return total;
  }

  // Phase 2, first half: every warp scans its thread totals by shuffles and leaves its total
  // in temp.warp_prefix[warp]. Returns what comes before this thread inside its warp.
  template <typename Op>
  __device__ static T scan_within_warp(T thread_total, Op op, TempStorage& temp) {
    const T warp_inclusive = ch03::warp_inclusive_scan(thread_total, op);
    if (ch03::lane_id() == ch03::kWarpSize - 1) temp.warp_prefix[threadIdx.x / ch03::kWarpSize] = warp_inclusive;
    return ch03::warp_exclusive_from_inclusive(warp_inclusive, op);
  }

  // Scans items in place, inclusive or exclusive. When TilePrefix is not NoTilePrefix,
  // tile_prefix(tile_total) is called by every lane of warp 0 after the tile's total is
  // known and must return, in every lane, the combination of everything before the tile;
  // it is combined into every element. Contains two barriers (Barrier::sync, by default
  // __syncthreads()): every scanning thread must call it, and a block that scans several
  // tiles with one TempStorage needs a barrier between calls.
  template <bool kExclusive, typename Op, typename TilePrefix = NoTilePrefix>
  __device__ static void scan(T (&items)[kItems], Op op, TempStorage& temp, TilePrefix tile_prefix = {}) {
    const int warp = static_cast<int>(threadIdx.x) / ch03::kWarpSize;
    const int lane = ch03::lane_id();

    // 1. reduce my items serially: no communication at all
    // 2. scan the thread totals: within each warp by shuffles, then across the warps
    const T before_me_in_warp = scan_within_warp(thread_reduce(items, op), op, temp);
    Barrier::sync();
    if (warp == 0) {
      const T warp_total = lane < kWarps ? temp.warp_prefix[lane] : Op::template identity<T>();
      const T inclusive = ch03::warp_inclusive_scan(warp_total, op);
      T before_warp = ch03::warp_exclusive_from_inclusive(inclusive, op);
      if constexpr (!std::is_same_v<TilePrefix, NoTilePrefix>)
        before_warp = op(tile_prefix(ch03::warp_broadcast_last(inclusive)), before_warp);
      if (lane < kWarps) temp.warp_prefix[lane] = before_warp;
    }
    Barrier::sync();

    // 3. rescan my items, starting from everything before my first item
    rescan<kExclusive>(items, op, op(temp.warp_prefix[warp], before_me_in_warp));
  }

  // Phase 3: rescans my items in place, starting from `running`, everything before my first item.
  template <bool kExclusive, typename Op>
  __device__ static void rescan(T (&items)[kItems], Op op, T running) {
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      if constexpr (kExclusive) {
        const T item = items[i];
        items[i] = running;
        running = op(running, item);
      } else {
        running = op(running, items[i]);
        items[i] = running;
      }
    }
  }

  // A scan of items that were reduced earlier by reduce() below, which left what comes before
  // each warp inside the tile: phase 1, this warp's half of phase 2 and phase 3, with no barrier.
  // `before_warp` is everything before this warp's first item, the tile's prefix included.
  // (Chapter 12 reduces a tile when it lands and scans it several tiles later.)
  template <bool kExclusive, typename Op>
  __device__ static void scan_after_reduce(T (&items)[kItems], Op op, T before_warp) {
    rescan<kExclusive>(items, op, before_thread_after_reduce(thread_reduce(items, op), op, before_warp));
  }

  // Phase 2 of scan_after_reduce() alone, from this thread's total: everything before this
  // thread's first item. (Chapter 12 reduces and rescans items it keeps in another order.)
  template <typename Op>
  __device__ static T before_thread_after_reduce(T thread_total, Op op, T before_warp) {
    const T inclusive = ch03::warp_inclusive_scan(thread_total, op);
    return op(before_warp, ch03::warp_exclusive_from_inclusive(inclusive, op));
  }

  // The tile's total, combined strictly in order (phases 1 and 2 without the rescan): for
  // the upsweep of chapter 07, where chapter 01's butterfly reduction would reorder the
  // operands of a non-commutative operator. The total is valid in every lane of warp 0 only.
  // Contains one barrier; a block that calls it again with the same TempStorage needs a
  // barrier in between.
  // With warp_before, warp 0 also leaves there what comes before each warp inside the tile
  // (warp_before[w], w < kWarps), for a later scan_after_reduce() of the same items.
  template <typename Op>
  __device__ static T reduce(const T (&items)[kItems], Op op, TempStorage& temp, T* warp_before = nullptr) {
    return reduce_thread_totals(thread_reduce(items, op), op, temp, warp_before);
  }

  // reduce() from this thread's total, which the caller reduced in order itself.
  template <typename Op>
  __device__ static T reduce_thread_totals(T thread_total, Op op, TempStorage& temp, T* warp_before = nullptr) {
    const int lane = ch03::lane_id();
    scan_within_warp(thread_total, op, temp);
    Barrier::sync();
    T total = Op::template identity<T>();
    if (threadIdx.x < ch03::kWarpSize) {
      const T inclusive = ch03::warp_inclusive_scan(lane < kWarps ? temp.warp_prefix[lane] : total, op);
      if (warp_before != nullptr) {
        const T exclusive = ch03::warp_exclusive_from_inclusive(inclusive, op);  // (a shuffle: every lane)
        if (lane < kWarps) warp_before[lane] = exclusive;
      }
      total = ch03::warp_broadcast_last(inclusive);
    }
    return total;
  }
};

// ---- moving a tile between global memory and registers ---------------------------------
//
// Thread t's items are consecutive in memory, so with kItems x sizeof(T) a multiple of 16
// bytes a thread moves them as whole 16-byte vectors: one instruction per 16 bytes instead
// of one per element. That needs a full tile and a 16-byte aligned array; the last, partial
// tile and unaligned arrays take the element-by-element path, padded with the identity.

template <typename T, int kItems>
inline constexpr bool kVectorisable = (kItems * sizeof(T)) % sizeof(uint4) == 0;

template <int kThreads, int kItems, typename T>
__device__ __forceinline__ bool can_use_vectors(const T* a, const T* b, int valid) {
  const bool aligned = ((reinterpret_cast<std::uintptr_t>(a) | reinterpret_cast<std::uintptr_t>(b)) % sizeof(uint4)) == 0;
  return kVectorisable<T, kItems> && aligned && valid == kThreads * kItems;
}

template <typename Op, int kItems, typename T>
__device__ __forceinline__ void load_items(const T* __restrict__ tile_in, int valid, bool vectors, T (&items)[kItems]) {
  const int first = static_cast<int>(threadIdx.x) * kItems;
  if constexpr (kVectorisable<T, kItems>) {
    if (vectors) {
      constexpr int kVectors = kItems * sizeof(T) / sizeof(uint4);
      uint4 raw[kVectors];
      const uint4* source = reinterpret_cast<const uint4*>(tile_in + first);
#pragma unroll
      for (int v = 0; v < kVectors; ++v) raw[v] = source[v];  // all loads in flight before any use
      std::memcpy(items, raw, sizeof(raw));                   // a register reinterpretation, no copy
      return;
    }
  }
#pragma unroll
  for (int i = 0; i < kItems; ++i) items[i] = first + i < valid ? tile_in[first + i] : Op::template identity<T>();
}

template <int kItems, typename T>
__device__ __forceinline__ void store_items(T* __restrict__ tile_out, int valid, bool vectors, const T (&items)[kItems]) {
  const int first = static_cast<int>(threadIdx.x) * kItems;
  if constexpr (kVectorisable<T, kItems>) {
    if (vectors) {
      constexpr int kVectors = kItems * sizeof(T) / sizeof(uint4);
      uint4 raw[kVectors];
      std::memcpy(raw, items, sizeof(raw));
      uint4* target = reinterpret_cast<uint4*>(tile_out + first);
#pragma unroll
      for (int v = 0; v < kVectors; ++v) target[v] = raw[v];
      return;
    }
  }
#pragma unroll
  for (int i = 0; i < kItems; ++i)
    if (first + i < valid) tile_out[first + i] = items[i];
}

}  // namespace ch05

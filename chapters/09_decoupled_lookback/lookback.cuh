// Chapter 09 - single-pass scan with decoupled look-back (Merrill & Garland, 2016).
//
// Where it sits: chapter 08's chained scan moves 2n but waits, tile after tile, for the
// previous tile's inclusive prefix: a chain of handoffs. This chapter extends chapter 08 (same
// ticket, same publication of tile status, same bounded waits) by *decoupling* a tile's
// aggregate from its prefix. Every tile publishes two things:
//
//   A  its aggregate (the reduction of its own elements), as soon as it is loaded
//   P  its inclusive prefix (everything up to and including it), once it is known
//
// and looks back over its predecessors t-1, t-2, ...: it combines their aggregates (right to
// left, each in front of what it has) until it meets one with P, adds that prefix, and
// stops. No tile waits for a predecessor's *look-back* any more, only for its *load*: the
// chain is broken into independent, short look-backs that all proceed at once.
//
// The four versions, each one idea beyond the last:
//   v1  one thread looks back, one tile at a time; flag and values in separate arrays,
//       ordered by fences (FencedStatus); aggregate and prefix in separate slots
//   v2  the same look-back over packed words (PackedStatus): flag and value in one 64-bit
//       (128-bit for 8-byte values) word, one relaxed access each: nothing to order
//   v3  a warp looks back: lane i reads tile t-1-i, the warp waits until every lane up to the
//       nearest P has left X, combines that run in order with shuffles, and slides the window
//       32 tiles back if no lane found a P
//   v4  tuned (tuned.cuh): one launch per scan (epoch-tagged words, a ticket counter that
//       resets itself), sleeps while waiting, forced occupancy, an L2 bulk prefetch, and
//       the tile geometry from a sweep
//
// Model: work about 2n operator applications plus a look-back of a few tiles per tile; depth:
//        no chain (a tile waits for its predecessors' loads, not their look-backs); bytes read
//        n + write n + a status word or two per tile -> 1.0x copy.
// Run: ./build/bin/09_decoupled_lookback --n 2^26
#pragma once

#include "05_block_scan/tile_local.cuh"
#include "08_chained_scan/chained_scan.cuh"  // take_tile, the status schemes, the ticket layout
#include "common/operators.hpp"
#include "common/watchdog.cuh"

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

namespace ch09 {

using ch08::kAggregate;
using ch08::kInclusive;
using ch08::kInvalid;
using ch08::Observed;

// ---- v1, v2: one thread walks back, one predecessor at a time ------------------------------
//
// Called by warp 0 with the tile's total; lane 0 does everything and returns, in every lane,
// the exclusive prefix: the combination of all tiles before `tile`.
struct SingleThreadLookBack {
  template <typename T, typename Op, typename Status>
  __device__ static T exclusive_prefix(const Status& status, std::size_t tile, T tile_total, Op op, const sg::Watchdog& dog) {
    T prefix = Op::template identity<T>();
    if (ch03::lane_id() == 0) {
      if (tile == 0) {
        status.publish(0, kInclusive, tile_total);
      } else {
        status.publish(tile, kAggregate, tile_total);
        sg::WaitBudget budget(dog);
        for (std::size_t j = tile - 1;; --j) {
          Observed<T> seen = status.poll(j);
          while (seen.status == kInvalid && budget.keep_waiting(tile, j)) seen = status.poll(j);
          prefix = op(seen.value, prefix);  // tile j comes before everything gathered so far
          if (seen.status != kAggregate) break;  // P (or a give-up: the launch is reported failed)
        }
        status.publish(tile, kInclusive, op(prefix, tile_total));
      }
    }
    return __shfl_sync(ch03::kFullWarp, prefix, 0);
  }
};

// ---- v3 (and v4): the warp looks back 32 tiles at a time -----------------------------------
//
// Lane i watches tile base - i. The window is usable when every lane from 0 up to the first
// lane showing P (or all 32, if none does) has left X; the lanes beyond that P don't matter.
// Its value is the combination of those lanes in *tile* order, i.e. from the highest lane
// down to lane 0: a scan "downwards" with shuffles, where each lane puts the value from the
// lane above it (an earlier tile) in front of its own: lane i ends with lanes 31..i combined,
// the window's tiles up to its own (chapter 12 publishes those), and lane 0 with all of them.
template <typename T, typename Op>
__device__ __forceinline__ T scan_window_in_tile_order(T value, Op op) {
  const int lane = ch03::lane_id();
#pragma unroll
  for (int offset = 1; offset < ch03::kWarpSize; offset *= 2) {
    const T earlier = __shfl_down_sync(ch03::kFullWarp, value, offset);
    if (lane + offset < ch03::kWarpSize) value = op(earlier, value);
  }
  return value;
}
// The whole window, in every lane.
template <typename T, typename Op>
__device__ __forceinline__ T combine_window_in_tile_order(T value, Op op) {
  return __shfl_sync(ch03::kFullWarp, scan_window_in_tile_order(value, op), 0);  // lane 0: lanes 31..0, i.e. tiles base-31..base
}
// The lanes a window needs, from the ballot of its lanes showing P: lanes 0 .. the first of them
// (x & -x keeps the lowest set bit; times two, minus one, sets it and every bit below), or all 32
// when none shows P (0 * 2 - 1 wraps round to every bit).
__host__ __device__ constexpr unsigned lanes_up_to_nearest_p(unsigned inclusive) { return (inclusive & -inclusive) * 2u - 1u; }
static_assert(lanes_up_to_nearest_p(0b10100u) == 0b111u && lanes_up_to_nearest_p(0u) == ~0u);

// kInitialDelayNs: sleep once before the first look (the nearest predecessors are loading
// their tiles at the same time as we are: their aggregates are about a load away);
// kPollDelayNs: sleep between looks at a window that is not ready yet (every look reads 32
// status words from the hottest lines of the L2, which slows the stores that publish them).
// Both only when the grid is large (kSleepFromBlocks, as CUB does): a small grid has few
// waiters, nothing to contend for, and every nanosecond slept is latency. 0: never sleep.
template <unsigned kInitialDelayNs = 0, unsigned kPollDelayNs = 0>
struct WarpLookBack {
  static constexpr unsigned kSleepFromBlocks = 512;

  template <typename T, typename Op, typename Status>
  __device__ static T exclusive_prefix(const Status& status, std::size_t tile, T tile_total, Op op, const sg::Watchdog& dog) {
    return exclusive_prefix(status, tile, tile_total, op, dog, gridDim.x >= kSleepFromBlocks);
  }
  // The same, sleeping or not as the caller says (chapter 12's persistent grids are small
  // while their tiles are many).
  template <typename T, typename Op, typename Status>
  __device__ static T exclusive_prefix(const Status& status, std::size_t tile, T tile_total, Op op, const sg::Watchdog& dog, bool sleep) {
    const int lane = ch03::lane_id();
    if (tile == 0) {
      if (lane == 0) status.publish(0, kInclusive, tile_total);
      return Op::template identity<T>();
    }
    if (lane == 0) status.publish(tile, kAggregate, tile_total);
    return resolve(status, tile, tile_total, op, dog, sleep);
  }

  // The look-back itself, for a tile > 0 whose aggregate is already published: returns the
  // exclusive prefix in every lane and publishes the tile's P. (Chapter 12 calls it from a warp
  // of its own, after the warps that reduced the tile have published its A.)
  template <typename T, typename Op, typename Status>
  __device__ static T resolve(const Status& status, std::size_t tile, T tile_total, Op op, const sg::Watchdog& dog, bool sleep) {
    const int lane = ch03::lane_id();
    if (kInitialDelayNs > 0 && sleep) __nanosleep(kInitialDelayNs);
    T prefix = Op::template identity<T>();
    sg::WaitBudget budget(dog);
    bool gave_up = false;
    for (long long base = static_cast<long long>(tile) - 1;; base -= ch03::kWarpSize) {
      // lane i watches tile base - i; before tile 0, an inclusive identity. The load comes first
      // and unconditionally (tile 0 stands in for a tile before it).
      const long long j = base - lane;
      Observed<T> seen;
      unsigned inclusive = 0, invalid = 0;
      auto look = [&] {
        seen = status.poll(static_cast<std::size_t>(j >= 0 ? j : 0));
        if (j < 0) seen = Observed<T>{kInclusive, Op::template identity<T>()};
        inclusive = __ballot_sync(ch03::kFullWarp, seen.status == kInclusive);
        invalid = __ballot_sync(ch03::kFullWarp, seen.status == kInvalid);
      };
      look();
      // wait until every lane up to the nearest P (all 32 if none) has left X
      for (unsigned waiting = invalid & lanes_up_to_nearest_p(inclusive); waiting != 0;
           waiting = invalid & lanes_up_to_nearest_p(inclusive)) {
        const unsigned long long nearest = static_cast<unsigned long long>(base - (__ffs(waiting) - 1));
        gave_up = __shfl_sync(ch03::kFullWarp, lane == 0 && !budget.keep_waiting(tile, nearest), 0);
        if (gave_up) break;  // the launch is reported failed; finish quickly
        if (kPollDelayNs > 0 && sleep) __nanosleep(kPollDelayNs);
        look();
      }
      const T mine = (lanes_up_to_nearest_p(inclusive) >> lane) & 1u ? seen.value : Op::template identity<T>();
      prefix = op(combine_window_in_tile_order(mine, op), prefix);  // this window precedes what we had
      if (inclusive != 0 || gave_up) break;
    }
    if (lane == 0) status.publish(tile, kInclusive, op(prefix, tile_total));
    return prefix;
  }
};

// ---- the kernel every version shares --------------------------------------------------------
//
// Chapter 08's kernel with the look-back in the tile_prefix hook. `State` carries the status
// words (publish / poll) and the ticket (take).
// kMinBlocks: blocks per SM the compiler must leave room for (__launch_bounds__). A tile
// waiting in its look-back holds its items in registers and moves no data; the other blocks
// on the SM must keep DRAM busy meanwhile, so occupancy matters here more than anywhere else.
template <typename T, typename Op, bool kExclusive, typename LookBack, typename State, int kThreads, int kItems, int kMinBlocks = 1>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    single_pass_scan_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n, State state, sg::Watchdog dog) {
  using Tile = ch05::TileScan<T, kThreads, kItems>;
  __shared__ typename Tile::Storage storage;
  __shared__ unsigned long long tile_index;
  if constexpr (State::kPrefetch) state.prefetch(in, n, Tile::kTileItems);
  const std::size_t tile = state.take(tile_index);
  const std::size_t begin = tile * Tile::kTileItems;
  const int valid = static_cast<int>(n - begin < Tile::kTileItems ? n - begin : Tile::kTileItems);
  const Op op{};
  auto look_back = [&](T tile_total) { return LookBack::exclusive_prefix(state.status, tile, tile_total, op, dog); };
  Tile::template scan<kExclusive>(in + begin, out + begin, valid, op, storage, look_back);
}

// v1-v3: the status and ticket of chapter 08, cleared before every launch.
template <typename Status>
struct ClearedState {
  static constexpr bool kPrefetch = false;
  Status status;
  unsigned long long* ticket;
  __device__ std::size_t take(unsigned long long& shared_tile) const {
    return ch08::take_tile<ch08::TileOrder::kTicket>(ticket, shared_tile);
  }
};

inline constexpr int kThreads = 512;
inline constexpr int kBytesPerThread = 64;  // 16 int32 per thread: 8192-element tiles, as chapter 08

template <typename T, int kThreadsPerBlock = kThreads, int kBytes = kBytesPerThread>
inline constexpr std::size_t kTileItems = ch05::kTileItems<T, kThreadsPerBlock, kBytes>;

template <typename T, template <typename> class Status>
std::size_t single_pass_scratch_bytes(std::size_t n) {
  return ch08::chained_scan_scratch_bytes<T, Status, kThreads, kBytesPerThread>(n);
}

template <typename T, typename Op, bool kExclusive, template <typename> class Status, typename LookBack>
void single_pass_scan(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  constexpr int kItems = ch05::kItemsPerThread<T, kBytesPerThread>;
  const std::size_t tiles = (n + kTileItems<T> - 1) / kTileItems<T>;
  unsigned char* scratch = static_cast<unsigned char*>(sg::scratch_bytes(single_pass_scratch_bytes<T, Status>(n)));
  SG_CUDA(cudaMemsetAsync(scratch, 0, ch08::kTicketBytes + Status<T>::bytes_to_clear(tiles), stream));  // ticket 0, all X
  ClearedState<Status<T>> state{};
  state.status.point_into(scratch + ch08::kTicketBytes, tiles);
  state.ticket = reinterpret_cast<unsigned long long*>(scratch);
  single_pass_scan_kernel<T, Op, kExclusive, LookBack, ClearedState<Status<T>>, kThreads, kItems>
      <<<sg::blocks_for(tiles, 1), kThreads, 0, stream>>>(in, out, n, state, sg::watchdog());
  SG_CHECK_LAUNCH();
}

}  // namespace ch09

// Chapter 09, v4 - the tuned single-pass scan: one launch per scan, and what made it fast.
//
// One launch. v1-v3 clear their status words and their ticket with a cudaMemsetAsync before
// every launch: a second operation on the stream, which for a small array costs as much as the
// scan. v4 needs no clearing:
//   epochs   every launch gets a number, its epoch, and writes it into the status bits of every
//            word it publishes: (epoch << 2) | status. A reader that finds another epoch in a
//            word knows it is left over from an earlier launch and treats it as X. The words
//            live in a buffer of v4's own, zeroed when it is allocated (epoch 0 is never used),
//            so nothing but earlier v4 launches ever wrote there. 30 bits of epoch: after
//            2^30 - 1 launches the buffer is zeroed once more.
//   ticket   the block that takes the last ticket (tiles - 1) puts the counter back to 0: every
//            other ticket of its launch has been handed out by then, and the next launch
//            starts after this one ends.
//
// Fast. Without its look-back the kernel runs at a copy's speed (the diagnostic variant), so
// all that matters is how long tiles wait, and how much memory traffic the SMs keep in flight
// while some of their tiles wait. The knobs, in the order the README's ladder adds them:
//   sleeps       before the first look and between looks (WarpLookBack)
//   tile         CUB's 128 threads, then more items per thread: fewer, larger tiles, fewer
//                look-backs for the same bytes
//   occupancy    __launch_bounds__(threads, blocks per SM): the compiler otherwise spends
//                registers freely and fewer blocks fit on an SM; a waiting tile moves no data,
//                so the other tiles on the SM must
//   L2 prefetch  before its ticket a block asks the copy engine to bring a tile into L2 (its
//                own index: about the tile it will get; and one a fraction of the resident
//                blocks ahead): DRAM keeps working while tiles take tickets and look back
#pragma once

#include "09_decoupled_lookback/lookback.cuh"
#include "common/device_buffer.cuh"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <map>

namespace ch09 {

template <typename T>
struct EpochStatus {
  using Word = ch08::PackedWord<T>;
  Word* words;
  unsigned int epoch;  // 1 .. 2^30 - 1

  __device__ void publish(std::size_t tile, unsigned int status, T value) const {
    ch08::store_relaxed(words + tile, ch08::pack((epoch << 2) | status, value));
  }
  __device__ Observed<T> poll(std::size_t tile) const { return observe(ch08::load_relaxed(words + tile)); }
  // What a word loaded from the status array says (chapter 12 also loads them another way).
  __device__ Observed<T> observe(const Word& word) const {
    const unsigned int bits = ch08::status_bits_of<T>(word);
    if ((bits >> 2) != epoch) return {kInvalid, T{}};  // left over from an earlier launch
    return {bits & 3u, ch08::value_of<T>(word)};
  }
};

// Hopper's bulk prefetch: one instruction asks the copy engine to bring `bytes` (a multiple of
// 16, from a 16-byte aligned address) into L2, without registers or shared memory.
__device__ __forceinline__ void prefetch_l2(const void* address, unsigned int bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(address), "r"(bytes) : "memory");
#else
  (void)address;
  (void)bytes;
#endif
}

// Status: EpochStatus<T>, or a type derived from it that carries more (chapter 11's carry-in).
template <typename T, bool kPrefetchTile = false, typename Status = EpochStatus<T>>
struct EpochState {
  static constexpr bool kPrefetch = kPrefetchTile;
  Status status;
  unsigned long long* ticket;
  unsigned long long tiles;
  unsigned long long prefetch_ahead;  // 0: prefetch this block's own tile; d > 0: tile blockIdx + d

  // Before the ticket: the ticket is an atomic round trip (about a microsecond under load)
  // before the block knows which tile to load. Tickets come out in about the order blocks
  // start, so the tile with this block's index is the one this block, or a neighbour, is
  // about to load: asking L2 for it now overlaps its DRAM latency with the ticket's.
  // (In: the input's element type, which chapter 10's compaction, counting in T, does not share.)
  template <typename In>
  __device__ void prefetch(const In* in, std::size_t n, std::size_t tile_items) const {
    if (threadIdx.x != 0 || (reinterpret_cast<std::uintptr_t>(in) & 15) != 0) return;
    if (prefetch_ahead == 0 || blockIdx.x < prefetch_ahead) prefetch_tile(in, n, tile_items, blockIdx.x);
    if (prefetch_ahead > 0) prefetch_tile(in, n, tile_items, blockIdx.x + prefetch_ahead);
  }
  template <typename In>
  __device__ void prefetch_tile(const In* in, std::size_t n, std::size_t tile_items, std::size_t tile) const {
    const std::size_t begin = tile * tile_items;
    if (begin >= n) return;
    const std::size_t bytes = ((n - begin < tile_items ? n - begin : tile_items) * sizeof(In)) & ~std::size_t{15};
    if (bytes > 0) prefetch_l2(in + begin, static_cast<unsigned int>(bytes));
  }

  __device__ std::size_t take(unsigned long long& shared_tile) const {
    if (threadIdx.x == 0) {
      shared_tile = atomicAdd(ticket, 1ull);
      if (shared_tile == tiles - 1) atomicExch(ticket, 0ull);  // the last ticket: ready for the next launch
    }
    __syncthreads();
    return static_cast<std::size_t>(shared_tile);
  }
};

// v4's own buffer of status words (one per word size) and its epoch counter.
inline constexpr unsigned int kEpochLimit = 1u << 30;

struct EpochLease {
  void* words;
  unsigned long long* ticket;
  unsigned int epoch;
};

// The buffer of words of kWordBytes on the current GPU, and the epoch of the last launch that
// used it (the tests move it next to the limit to see the wrap-around). One of each per GPU:
// chapter 11 scans on several GPUs from one process.
template <std::size_t kWordBytes>
struct EpochWords {
  sg::DeviceBuffer<unsigned char> buffer;
  unsigned int epoch = 0;
};

template <std::size_t kWordBytes>
EpochWords<kWordBytes>& epoch_words() {
  static std::map<int, EpochWords<kWordBytes>> per_device;
  return per_device[sg::current_device()];
}

template <std::size_t kWordBytes>
unsigned int& last_epoch() {
  return epoch_words<kWordBytes>().epoch;
}

template <std::size_t kWordBytes>
EpochLease lease_epoch_words(std::size_t tiles, cudaStream_t stream) {
  sg::DeviceBuffer<unsigned char>& buffer = epoch_words<kWordBytes>().buffer;
  unsigned int& epoch = last_epoch<kWordBytes>();
  const std::size_t bytes = ch08::kTicketBytes + tiles * kWordBytes;
  if (bytes > buffer.size()) {  // grows during a warm-up run, never inside timing
    buffer = sg::DeviceBuffer<unsigned char>();
    buffer = sg::DeviceBuffer<unsigned char>(bytes);
    SG_CUDA(cudaMemsetAsync(buffer.data(), 0, bytes, stream));
    epoch = 0;
  }
  if (++epoch == kEpochLimit) {
    SG_CUDA(cudaMemsetAsync(buffer.data(), 0, buffer.size(), stream));
    epoch = 1;
  }
  return {buffer.data() + ch08::kTicketBytes, reinterpret_cast<unsigned long long*>(buffer.data()), epoch};
}

// A "look-back" that looks nowhere: every tile scans as if nothing came before it. Not a scan
// of the array; the program times it to show what the look-back itself costs.
struct NoLookBack {
  template <typename T, typename Op, typename Status>
  __device__ static T exclusive_prefix(const Status&, std::size_t, T, Op, const sg::Watchdog&) {
    return Op::template identity<T>();
  }
};

// One configuration of v4: the knobs above.
template <int kThreadsPerBlock, int kBytesPerThreadOfBlock, unsigned kInitialDelay, unsigned kPollDelay, int kMinBlocksPerSM,
          bool kPrefetchTile, int kPrefetchAheadPercent>
struct Tuning {
  static constexpr int kThreads = kThreadsPerBlock;
  static constexpr int kBytesPerThread = kBytesPerThreadOfBlock;
  static constexpr unsigned kInitialDelayNs = kInitialDelay;
  static constexpr unsigned kPollDelayNs = kPollDelay;
  static constexpr int kMinBlocks = kMinBlocksPerSM;
  static constexpr bool kPrefetch = kPrefetchTile;
  static constexpr int kAheadPercent = kPrefetchAheadPercent;  // of the blocks resident at once; 0: own tile only
};

// The ladder the README climbs (each adds one knob to the one before), ending at Tuned, the
// sweep's best on an H100 (README).
using OneLaunch = Tuning<512, 64, 0, 0, 1, false, 0>;             // v3, with epochs and a self-resetting ticket
using Sleeping = Tuning<512, 64, 1245, 648, 1, false, 0>;         // + sleeps (CUB's sm_90 values)
using CubTile = Tuning<128, 96, 1245, 648, 1, false, 0>;          // + CUB's tile: 128 threads x 24 int32
using Occupied = Tuning<128, 96, 1245, 648, 6, false, 0>;         // + room for 6 blocks per SM (80 registers)
using Prefetched = Tuning<128, 96, 1245, 648, 6, true, 0>;        // + L2 prefetch of the block's own tile
using Tuned = Tuning<128, 192, 4000, 1000, 4, true, 12>;          // + 48 int32 per thread, longer sleeps, prefetch 1/8 of the blocks ahead

template <typename T, typename Config>
inline constexpr std::size_t kTunedTileItems = ch05::kTileItems<T, Config::kThreads, Config::kBytesPerThread>;

// The state of one v4 launch of `kernel` over `tiles` tiles whose status words hold Values:
// leased words and their epoch, the ticket, and how far ahead to prefetch (from the kernel's
// resident blocks, computed once per kernel). Chapter 10's compaction launches with it too.
template <typename Value, typename Config, auto kernel, typename Status = EpochStatus<Value>>
EpochState<Value, Config::kPrefetch, Status> epoch_state(std::size_t tiles, cudaStream_t stream) {
  const EpochLease lease = lease_epoch_words<sizeof(ch08::PackedWord<Value>)>(tiles, stream);
  EpochState<Value, Config::kPrefetch, Status> state{};
  state.status.words = static_cast<ch08::PackedWord<Value>*>(lease.words);
  state.status.epoch = lease.epoch;
  state.ticket = lease.ticket;
  state.tiles = tiles;
  if constexpr (Config::kAheadPercent > 0) {
    static const unsigned resident = sg::resident_blocks(kernel, Config::kThreads);
    state.prefetch_ahead = resident * Config::kAheadPercent / 100;
  }
  return state;
}

template <typename T, typename Op, bool kExclusive, typename Config = Tuned,
          typename LookBack = WarpLookBack<Config::kInitialDelayNs, Config::kPollDelayNs>>
void tuned_scan(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  constexpr int kItems = ch05::kItemsPerThread<T, Config::kBytesPerThread>;
  constexpr std::size_t kTile = kTunedTileItems<T, Config>;
  using State = EpochState<T, Config::kPrefetch>;
  constexpr auto kernel = single_pass_scan_kernel<T, Op, kExclusive, LookBack, State, Config::kThreads, kItems, Config::kMinBlocks>;
  const std::size_t tiles = (n + kTile - 1) / kTile;
  const State state = epoch_state<T, Config, kernel>(tiles, stream);
  kernel<<<sg::blocks_for(tiles, 1), Config::kThreads, 0, stream>>>(in, out, n, state, sg::watchdog());
  SG_CHECK_LAUNCH();
}

}  // namespace ch09

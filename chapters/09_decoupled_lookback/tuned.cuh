// Chapter 09, v4 - the tuned single-pass scan: one launch per scan.
//
// v1-v3 clear their status words and their ticket with a cudaMemsetAsync before every launch:
// a second operation on the stream, which for a small array costs as much as the scan. v4
// needs no clearing:
//
//   epochs     every launch gets a number, its epoch, and writes it into the status bits of
//              every word it publishes: (epoch << 2) | status. A reader that finds another
//              epoch in a word knows that the word is left over from an earlier launch and
//              treats it as X. The words live in a buffer of v4's own, zeroed when it is
//              allocated (epoch 0 is never used), so nothing but earlier v4 launches ever wrote
//              there. 30 bits of epoch: after 2^30 - 1 launches the buffer is zeroed once more.
//   ticket     the block that takes the last ticket (tiles - 1) puts the counter back to 0:
//              every other ticket of its launch has been handed out by then, and the next
//              launch starts after this one ends.
//
// The rest is the warp look-back of v3 with the knobs this file's variants sweep (README):
// tile geometry, a sleep before the first look and between looks.
#pragma once

#include "09_decoupled_lookback/lookback.cuh"
#include "common/device_buffer.cuh"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace ch09 {

template <typename T>
struct EpochStatus {
  using Word = ch08::PackedWord<T>;
  Word* words;
  unsigned int epoch;  // 1 .. 2^30 - 1

  __device__ void publish(std::size_t tile, unsigned int status, T value) const {
    ch08::store_relaxed(words + tile, ch08::pack((epoch << 2) | status, value));
  }
  __device__ Observed<T> poll(std::size_t tile) const {
    const Word word = ch08::load_relaxed(words + tile);
    const unsigned int bits = ch08::status_bits_of<T>(word);
    if ((bits >> 2) != epoch) return {kInvalid, T{}};  // left over from an earlier launch
    return {bits & 3u, ch08::value_of<T>(word)};
  }
};

template <typename T>
struct EpochState {
  EpochStatus<T> status;
  unsigned long long* ticket;
  unsigned long long tiles;

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

// The epoch of the last launch that used words of kWordBytes (the tests move it next to the
// limit to see the wrap-around).
template <std::size_t kWordBytes>
unsigned int& last_epoch() {
  static unsigned int epoch = 0;
  return epoch;
}

template <std::size_t kWordBytes>
EpochLease lease_epoch_words(std::size_t tiles, cudaStream_t stream) {
  static sg::DeviceBuffer<unsigned char> buffer;
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

template <typename T, int kThreadsPerBlock, int kBytes>
inline constexpr int kItemsOf = ch05::kItemsPerThread<T, kBytes>;

template <typename T, typename Op, bool kExclusive, int kThreadsPerBlock = kThreads, int kBytes = kBytesPerThread,
          unsigned kInitialDelayNs = 0, unsigned kPollDelayNs = 0, typename LookBack = WarpLookBack<kInitialDelayNs, kPollDelayNs>>
void tuned_scan(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  constexpr int kItems = kItemsOf<T, kThreadsPerBlock, kBytes>;
  constexpr std::size_t kTile = kTileItems<T, kThreadsPerBlock, kBytes>;
  const std::size_t tiles = (n + kTile - 1) / kTile;
  const EpochLease lease = lease_epoch_words<sizeof(ch08::PackedWord<T>)>(tiles, stream);
  EpochState<T> state{};
  state.status.words = static_cast<ch08::PackedWord<T>*>(lease.words);
  state.status.epoch = lease.epoch;
  state.ticket = lease.ticket;
  state.tiles = tiles;
  single_pass_scan_kernel<T, Op, kExclusive, LookBack, EpochState<T>, kThreadsPerBlock, kItems>
      <<<sg::blocks_for(tiles, 1), kThreadsPerBlock, 0, stream>>>(in, out, n, state, sg::watchdog());
  SG_CHECK_LAUNCH();
}

}  // namespace ch09

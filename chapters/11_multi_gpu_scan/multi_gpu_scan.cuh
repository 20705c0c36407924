// Chapter 11 - scan across GPUs with NCCL: the same hierarchy, one level up.
//
// Where it sits: chapter 06 scanned tiles and then fixed them up with the scanned tile totals;
// chapter 07 reduced tiles first and scanned them seeded with their prefix. Put a GPU where
// the tile was and NCCL where the L2 was, and the same two algorithms scan an array spread
// over G GPUs (gpus.cuh: GPU g holds the contiguous shard g of n / G elements):
//
//   scan_exchange_fixup     each GPU scans its shard (chapter 09, v4); the G shard totals are
//                           all-gathered (ncclAllGather); GPU g > 0 combines the totals of
//                           GPUs 0 .. g-1 into its carry and applies it to every element of
//                           its shard.                    bytes per GPU: 2 n/G + 2 n/G = 4 n/G
//   reduce_exchange_scan    each GPU reduces its shard, in order (chapter 07's stripes); the
//                           totals are all-gathered; each GPU scans its shard with chapter 09's
//                           kernel, seeded with its carry through chapter 05's tile_prefix
//                           hook (WithCarryIn below).   bytes per GPU: n/G + 2 n/G = 3 n/G
//
// Against one GPU's single-pass scan of the whole array (2n), the best parallel efficiency
// these can reach is 2n / (G x 4n/G) = 50% and 2n / (G x 3n/G) = 67%: each GPU moves its
// shard's bytes once more than a single pass would. The exchange itself is G values.
// Combinations are always in order: carry(g) = total(0) + ... + total(g-1), and the carry goes
// in front of every local prefix, so any associative operator works.
// Run: ./build/bin/11_multi_gpu_scan --gpus 1,2 --n 2^30,2^31
#pragma once

#include "05_block_scan/tile_local.cuh"
#include "07_reduce_then_scan/reduce_then_scan.cuh"
#include "09_decoupled_lookback/tuned.cuh"
#include "11_multi_gpu_scan/gpus.cuh"
#include "common/launch.cuh"

#include <cuda_runtime.h>
#include <nccl.h>

#include <cstddef>
#include <map>
#include <vector>

namespace ch11 {

// ---- the exchange ----------------------------------------------------------------------------

// Each GPU's slots: its own total (sent) and every GPU's total (gathered), plus chapter 07's
// partials for the reduction. One set per GPU, grown as needed.
template <typename T>
struct Slots {
  sg::DeviceBuffer<T> total, gathered, partials;
};

template <typename T>
Slots<T>& slots_on_current_gpu(int gpus, std::size_t partials) {
  static std::map<int, Slots<T>> per_device;
  Slots<T>& slots = per_device[sg::current_device()];
  if (slots.total.size() == 0) slots.total = sg::DeviceBuffer<T>(1);
  if (slots.gathered.size() < static_cast<std::size_t>(gpus)) slots.gathered = sg::DeviceBuffer<T>(static_cast<std::size_t>(gpus));
  if (slots.partials.size() < partials) slots.partials = sg::DeviceBuffer<T>(partials);
  return slots;
}

// Events a launch records around its exchange on every GPU, when the bench asks for them (the
// share of time spent in NCCL).
struct ExchangeEvents {
  std::vector<cudaEvent_t> before, after;  // one per GPU, created on that GPU
};

// Every GPU's total into every GPU's `gathered`, in rank order: one ncclAllGather per GPU,
// grouped, since one thread drives them all.
template <typename T>
void all_gather_totals(const Gpus& gpus, const std::vector<Slots<T>*>& slots, const ExchangeEvents* events) {
  if (events != nullptr) gpus.on_each([&](int g) { SG_CUDA(cudaEventRecord(events->before[g], gpus.stream(g))); });
  SG_NCCL(ncclGroupStart());
  for (int g = 0; g < gpus.count(); ++g)
    SG_NCCL(ncclAllGather(slots[g]->total.data(), slots[g]->gathered.data(), sizeof(T), ncclChar, gpus.comm(g), gpus.stream(g)));
  SG_NCCL(ncclGroupEnd());
  if (events != nullptr) gpus.on_each([&](int g) { SG_CUDA(cudaEventRecord(events->after[g], gpus.stream(g))); });
}

// Everything before GPU `rank`: the totals of GPUs 0 .. rank-1, combined in order.
template <typename T, typename Op>
__device__ __forceinline__ T carry_before(const T* __restrict__ totals, int rank) {
  T carry = Op::template identity<T>();
  for (int r = 0; r < rank; ++r) carry = Op{}(carry, totals[r]);
  return carry;
}

// ---- scan, exchange, fix-up ------------------------------------------------------------------

// The shard's total from its scan: the last inclusive value (exclusive: the last value combined
// with the last input). An empty shard's total is the identity.
template <typename T, typename Op, bool kExclusive>
__global__ void shard_total_kernel(const T* in, const T* scanned, std::size_t count, T* total) {
  if (count == 0) *total = Op::template identity<T>();
  else *total = kExclusive ? Op{}(scanned[count - 1], in[count - 1]) : scanned[count - 1];
}

inline constexpr int kElementwiseThreads = 256;

// out[i] = carry + out[i] for the whole shard: a read and a write of every element, at a copy's
// speed (one 16-byte group per thread).
template <typename T, typename Op>
__global__ void __launch_bounds__(kElementwiseThreads) fixup_kernel(T* out, std::size_t count, const T* totals, int rank) {
  const std::size_t first = sg::group_first<T>();
  if (first >= count) return;
  const T carry = carry_before<T, Op>(totals, rank);
  T x[sg::kVector<T>];
  sg::load_group(out, first, count, x);
#pragma unroll
  for (int v = 0; v < sg::kVector<T>; ++v) x[v] = Op{}(carry, x[v]);
  sg::store_group(out, first, count, x);
}

template <typename T, typename Op, bool kExclusive>
void scan_exchange_fixup(const Gpus& gpus, Distributed<T>& data, const ExchangeEvents* events) {
  std::vector<Slots<T>*> slots(gpus.count());
  gpus.on_each([&](int g) {
    slots[g] = &slots_on_current_gpu<T>(gpus.count(), 0);
    const Range& range = data.ranges[g];
    ch09::tuned_scan<T, Op, kExclusive>(data.in[g].data(), data.out[g].data(), range.count, gpus.stream(g));
    shard_total_kernel<T, Op, kExclusive><<<1, 1, 0, gpus.stream(g)>>>(data.in[g].data(), data.out[g].data(), range.count,
                                                                       slots[g]->total.data());
    SG_CHECK_LAUNCH();
  });
  all_gather_totals(gpus, slots, events);
  gpus.on_each([&](int g) {
    const Range& range = data.ranges[g];
    if (g == 0 || range.count == 0) return;  // nothing comes before GPU 0
    const unsigned blocks = sg::blocks_for(range.count, static_cast<std::size_t>(kElementwiseThreads) * sg::kVector<T>);
    fixup_kernel<T, Op><<<blocks, kElementwiseThreads, 0, gpus.stream(g)>>>(data.out[g].data(), range.count, slots[g]->gathered.data(), g);
    SG_CHECK_LAUNCH();
  });
}

// ---- reduce, exchange, scan with a carry-in ---------------------------------------------------

// The shard's reduction, in order: chapter 07's upsweep over its stripes, then one block over
// the stripes' partials.
template <typename T, typename Op>
void reduce_shard(const T* in, std::size_t count, Slots<T>& slots, cudaStream_t stream) {
  if (count == 0) {
    shard_total_kernel<T, Op, false><<<1, 1, 0, stream>>>(in, in, 0, slots.total.data());
    SG_CHECK_LAUNCH();
    return;
  }
  const unsigned blocks = ch07::grid_size<T, Op, ch07::kResident>(count);
  ch07::reduce_stripes_kernel<T, Op><<<blocks, ch07::kThreads, 0, stream>>>(in, count, blocks > 1 ? slots.partials.data() : slots.total.data());
  SG_CHECK_LAUNCH();
  if (blocks > 1) {
    ch07::reduce_stripes_kernel<T, Op><<<1, ch07::kThreads, 0, stream>>>(slots.partials.data(), blocks, slots.total.data());
    SG_CHECK_LAUNCH();
  }
}

// Chapter 09's status words, plus what comes before this GPU's shard.
template <typename T, typename Op>
struct CarriedStatus : ch09::EpochStatus<T> {
  const T* totals;  // every GPU's total, gathered
  int rank;
  __device__ T carry_in() const { return carry_before<T, Op>(totals, rank); }
};

// A look-back whose every prefix is preceded by the shard's carry: tile t's exclusive prefix is
// carry + (tiles 0 .. t-1 of this shard). The status words keep the shard-local values.
template <typename Inner>
struct WithCarryIn {
  template <typename T, typename Op, typename Status>
  __device__ static T exclusive_prefix(const Status& status, std::size_t tile, T tile_total, Op op, const sg::Watchdog& dog) {
    const T local = Inner::exclusive_prefix(status, tile, tile_total, op, dog);
    return op(status.carry_in(), local);
  }
};

template <typename T, typename Op, bool kExclusive, typename Config = ch09::Tuned>
void carried_scan(const T* in, T* out, std::size_t count, const T* totals, int rank, cudaStream_t stream) {
  if (count == 0) return;
  using Status = CarriedStatus<T, Op>;
  using State = ch09::EpochState<T, Config::kPrefetch, Status>;
  using LookBack = WithCarryIn<ch09::WarpLookBack<Config::kInitialDelayNs, Config::kPollDelayNs>>;
  constexpr int kItems = ch05::kItemsPerThread<T, Config::kBytesPerThread>;
  constexpr auto kernel = ch09::single_pass_scan_kernel<T, Op, kExclusive, LookBack, State, Config::kThreads, kItems, Config::kMinBlocks>;
  constexpr std::size_t kTile = ch09::kTunedTileItems<T, Config>;
  const std::size_t tiles = (count + kTile - 1) / kTile;
  State state = ch09::epoch_state<T, Config, kernel, Status>(tiles, stream);
  state.status.totals = totals;
  state.status.rank = rank;
  kernel<<<sg::blocks_for(tiles, 1), Config::kThreads, 0, stream>>>(in, out, count, state, sg::watchdog());
  SG_CHECK_LAUNCH();
}

template <typename T, typename Op, bool kExclusive>
void reduce_exchange_scan(const Gpus& gpus, Distributed<T>& data, const ExchangeEvents* events) {
  std::vector<Slots<T>*> slots(gpus.count());
  gpus.on_each([&](int g) {
    const Range& range = data.ranges[g];
    slots[g] = &slots_on_current_gpu<T>(gpus.count(), ch07::grid_size<T, Op, ch07::kResident>(std::max<std::size_t>(range.count, 1)));
    reduce_shard<T, Op>(data.in[g].data(), range.count, *slots[g], gpus.stream(g));
  });
  all_gather_totals(gpus, slots, events);
  gpus.on_each([&](int g) {
    carried_scan<T, Op, kExclusive>(data.in[g].data(), data.out[g].data(), data.ranges[g].count, slots[g]->gathered.data(), g,
                                    gpus.stream(g));
  });
}

// ---- the variant API -------------------------------------------------------------------------

template <typename T>
using MultiGpuLauncher = void (*)(const Gpus& gpus, Distributed<T>& data, const ExchangeEvents* events);

// Bytes each GPU moves through its memory, as a multiple of its shard (n/G elements).
template <typename T, typename Op>
struct MultiGpuVariant {
  const char* name;
  MultiGpuLauncher<T> launch;
  bool exclusive;
  double shard_passes;  // 4 (scan, fix-up) or 3 (reduce, scan)
};

}  // namespace ch11

// Chapter 12, steps 1-5 - from chapter 09's scan to a pipeline of warps with one job each.
//
// One kernel, read with its step number: every `if constexpr (kStep >= N)` is step N's idea,
// and the comment before it names the flaw of step N - 1 that it fixes. Every step is a
// persistent grid of blocks of 8 compute warps and a producer warp, 16 KiB tiles dealt
// round-robin (block b takes tiles b, b + G, b + 2G, ...), chapter 05's BlockScan and chapter
// 09's status words and warp look-back. Step 6 (warp_specialized.cuh) is the final kernel.
//
//   1 bulk loads         the producer bulk-copies tiles into a ring of 4 stages, each with a
//                        `full` and an `empty` mbarrier; the compute warps scan each tile with
//                        chapter 09's look-back inside the scan and store it themselves
//   2 look-back warp     a warp of its own resolves prefixes; the compute warps reduce tile k,
//                        publish its aggregate, and scan tile k - L; a bulk store sends it out
//   3 device geometry    two blocks per SM and as many stages as the shared memory holds
//   4 sector status      each status word on a 32-byte sector of its own, two look-back warps
//   5 prefetch           with each load, the L2 is asked for the block's next tile
#pragma once

#include "05_block_scan/block_scan.cuh"
#include "12_warp_specialized_scan/pipeline.cuh"
#include "common/launch.cuh"

#include <cuda_runtime.h>

#include <cstddef>
#include <map>

namespace ch12 {

template <int kStep>
struct Ladder {
  static constexpr int kComputeWarps = 8;
  static constexpr int kComputeThreads = 32 * kComputeWarps;
  // Step 2. Flaw of step 1: the compute warps wait inside the look-back while their SM's stages
  // sit full; one tile is scanned at a time per SM. (41% faster at 2^26 on an H100.)
  static constexpr bool kLookBackWarp = kStep >= 2;
  // Step 4. Flaw of step 3: status words packed 16 to a 128-byte line are the L2's hottest lines,
  // polled by every look-back and written by every block; a second look-back warp only re-polls.
  // (2% faster at 2^26 on an H100.)
  static constexpr int kLookBackWarps = kStep >= 4 ? 2 : kStep >= 2 ? 1 : 0;
  static constexpr int kStatusBytes = kStep >= 4 ? 32 : 0;
  // Step 5. Flaw of step 4: the bytes in flight are the stages loading, too few to keep DRAM busy.
  // (2% faster at 2^26 on an H100, 6% on an H200.)
  static constexpr bool kPrefetch = kStep >= 5;
  static constexpr int kThreads = 32 * (kComputeWarps + 1 + kLookBackWarps);
  template <typename T>
  static constexpr std::size_t kTile = static_cast<std::size_t>(kComputeThreads) * kItems<T>;
  template <typename T>
  using Status = StridedStatus<T, kStatusStride<T, kStatusBytes>>;
  template <typename T>
  using Scan = ch05::BlockScan<T, kComputeThreads, kItems<T>, ComputeBarrier<kComputeThreads>>;
};

template <typename T, int kStep>
struct LadderControl : Ring<T> {
  typename Ladder<kStep>::template Scan<T>::TempStorage reduce_storage, scan_storage;
};

#if SG_CH12_DEVICE_CODE
template <typename T, typename Op, int kStep>
__device__ void ladder_produce(const T* __restrict__ in, const Layout& layout, T* stages, int stage_count, Ring<T>& ring,
                               const sg::Watchdog& dog) {
  constexpr std::size_t kTile = Ladder<kStep>::template kTile<T>;
  const int lane = ch03::lane_id();
  const T* aligned_in = in - layout.shift;
  unsigned long long tile = blockIdx.x;
  for (RingPosition at;; at.advance(stage_count), tile += gridDim.x) {
    const int s = at.stage;
    if (at.round > 0) wait_phase(&ring.empty[s], at.parity ^ 1u, dog, tile);
    if (tile >= layout.tiles) {
      if (lane == 0) ring.tile_of[s] = kNoTile;
      arrive(&ring.full[s]);
      return;
    }
    if (lane == 0) ring.tile_of[s] = tile;
    load_tile<T, Op, kTile>(aligned_in, layout, tile, stages + static_cast<std::size_t>(s) * kTile, &ring.full[s], lane);
    if constexpr (Ladder<kStep>::kPrefetch)
      if (lane == 0) prefetch_tile<T, kTile>(aligned_in, layout, tile + gridDim.x);
  }
}

// The scanned tile in `stage` goes out by one bulk store of thread 0 (steps 2-5; step 1: by the
// threads), and the stage goes back to the producer once that store has read it.
template <typename T, int kStep>
__device__ void ladder_store(T* aligned_out, const Layout& layout, T* stage, int s, unsigned long long tile, Mbarrier* empty,
                             int& stored) {
  constexpr int kThreads = Ladder<kStep>::kComputeThreads;
  constexpr std::size_t kTile = Ladder<kStep>::template kTile<T>;
  const TileSpan span = tile_span<T, kTile>(layout, tile);
  fence_shared_for_bulk_copies();  // my stores into the stage, before the bulk store reads it
  ComputeBarrier<kThreads>::sync();
  const bool bulk = Ladder<kStep>::kLookBackWarp && layout.same_alignment;
  store_part(aligned_out, stage, span, span.first, span.first + kTile, static_cast<int>(threadIdx.x), kThreads, layout.same_alignment,
             bulk, threadIdx.x == 0);
  if (!bulk) {
    ComputeBarrier<kThreads>::sync();  // every thread has read the stage
    arrive(&empty[s]);
    return;
  }
  if (threadIdx.x == 0) wait_bulk_store_reads<1>();  // the store before this one has read its stage
  if (stored >= 0) arrive(&empty[stored]);
  stored = s;
}

template <typename T, typename Op, bool kExclusive, int kStep, typename Status>
__device__ void ladder_compute(T* __restrict__ out, const Layout& layout, T* stages, int stage_count, int lag,
                               LadderControl<T, kStep>& control, const Status& status, const sg::Watchdog& dog) {
  using L = Ladder<kStep>;
  using Scan = typename L::template Scan<T>;
  constexpr std::size_t kTile = L::template kTile<T>;
  const Op op{};
  T* aligned_out = out - layout.shift;
  T items[kItems<T>];
  int stored = -1;  // the stage whose bulk store may still be reading it

  if constexpr (!L::kLookBackWarp) {
    // Step 1: each tile as chapter 09 scans it, its look-back in BlockScan's hook.
    for (RingPosition at;; at.advance(stage_count)) {
      const int s = at.stage;
      wait_phase(&control.full[s], at.parity, dog, 0);
      const unsigned long long tile = control.tile_of[s];
      if (tile == kNoTile) return;
      T* stage = stages + static_cast<std::size_t>(s) * kTile;
      read_stage<true>(stage, items);
      auto look_back = [&](T total) { return ch09::WarpLookBack<>::exclusive_prefix(status, tile, total, op, dog, true); };
      Scan::template scan<kExclusive>(items, op, control.scan_storage, look_back);
      write_stage<true>(stage, items);
      ladder_store<T, kStep>(aligned_out, layout, stage, s, tile, control.empty, stored);
    }
  } else {
    // Steps 2-5: reduce tile k and publish its aggregate; scan tile k - L, which waited in its
    // stage while a look-back warp resolved its prefix.
    RingPosition scan_at;
    int waiting = 0;  // tiles reduced, not yet scanned
    auto scan_and_store = [&] {
      const int s = scan_at.stage;
      const unsigned long long tile = control.tile_of[s];
      T* stage = stages + static_cast<std::size_t>(s) * kTile;
      read_stage<true>(stage, items);
      auto known_prefix = [&](T) {
        wait_phase(&control.resolved[s], scan_at.parity, dog, tile);
        return control.prefix[s];
      };
      Scan::template scan<kExclusive>(items, op, control.scan_storage, known_prefix);
      write_stage<true>(stage, items);
      ladder_store<T, kStep>(aligned_out, layout, stage, s, tile, control.empty, stored);
      scan_at.advance(stage_count);
      --waiting;
    };
    for (RingPosition at;; at.advance(stage_count)) {
      const int s = at.stage;
      wait_phase(&control.full[s], at.parity, dog, 0);
      const unsigned long long tile = control.tile_of[s];
      if (tile == kNoTile) {
        if (threadIdx.x == 0) stop_look_back_warps<T, L::kLookBackWarps>(control, at, stage_count);
        break;
      }
      read_stage<true>(stages + static_cast<std::size_t>(s) * kTile, items);
      publish_aggregate(control, s, status, tile, Scan::reduce(items, op, control.reduce_storage));
      release_stored(control, stored, threadIdx.x == 0);  // early release
      if (++waiting > lag) scan_and_store();
      else ComputeBarrier<L::kComputeThreads>::sync();  // warp 0 has read reduce_storage before the next reduce writes it
    }
    while (waiting > 0) scan_and_store();
  }
  if (threadIdx.x == 0 && stored >= 0) wait_bulk_store_reads<0>();
}
#endif  // SG_CH12_DEVICE_CODE

template <typename T, typename Op, bool kExclusive, int kStep>
__global__ void __launch_bounds__(Ladder<kStep>::kThreads, 2)
    ladder_kernel(const T* __restrict__ in, T* __restrict__ out, Layout layout, int stage_count, int lag,
                  typename Ladder<kStep>::template Status<T> status, sg::Watchdog dog) {
#if SG_CH12_DEVICE_CODE
  using L = Ladder<kStep>;
  __shared__ LadderControl<T, kStep> control;
  extern __shared__ __align__(128) unsigned char stage_memory[];
  T* stages = reinterpret_cast<T*>(stage_memory);
  if (threadIdx.x == 0) {
    for (int s = 0; s < stage_count; ++s) {
      init_mbarrier(&control.full[s], 32);
      init_mbarrier(&control.empty[s], L::kComputeThreads);
      init_mbarrier(&control.reduced[s], 1);
      init_mbarrier(&control.resolved[s], 1);
    }
    fence_mbarrier_init();
  }
  __syncthreads();
  const int warp = static_cast<int>(threadIdx.x) / 32;
  if (warp < L::kComputeWarps) ladder_compute<T, Op, kExclusive, kStep>(out, layout, stages, stage_count, lag, control, status, dog);
  else if (warp == L::kComputeWarps) ladder_produce<T, Op, kStep>(in, layout, stages, stage_count, control, dog);
  else if constexpr (L::kLookBackWarp)
    look_back_warp<T, Op, L::kLookBackWarps>(status, control, stage_count, warp - L::kComputeWarps - 1, dog);
#else
  (void)in, (void)out, (void)layout, (void)stage_count, (void)lag, (void)status, (void)dog;
#endif
}

template <typename T, typename Op, bool kExclusive, int kStep>
void ladder_scan(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  using L = Ladder<kStep>;
  constexpr auto kernel = ladder_kernel<T, Op, kExclusive, kStep>;
  constexpr std::size_t kTileBytes = L::template kTile<T> * sizeof(T);
  // Step 3. Flaw of step 2: one block of 4 stages and a lag of 1 keep 32 KiB loading per SM, and
  // the look-back is not done when the scan needs it; two blocks per SM, as many stages as fit.
  // (19% faster at 2^26 on an H100.)
  static std::map<int, Plan> plans;
  const Plan& plan = plan_launch(plans, kernel, L::kThreads, kTileBytes, kStep >= 3 ? Geometry{0, 0, 2} : Geometry{4, 1, 1});
  if (!plan.bulk_copies) return ch09::tuned_scan<T, Op, kExclusive>(in, out, n, stream);  // before sm_90
  const Layout layout = layout_of(in, out, n, L::template kTile<T>);
  unsigned long long* ticket = nullptr;  // (dealt round-robin: no ticket)
  const auto status = lease_status<T, typename L::template Status<T>, kStatusStride<T, L::kStatusBytes>>(layout.tiles, stream, &ticket);
  const unsigned grid = persistent_grid(layout.tiles, plan.resident_blocks);
  kernel<<<grid, L::kThreads, plan.geometry.stages * kTileBytes, stream>>>(in, out, layout, plan.geometry.stages, plan.geometry.lag, status,
                                                                          sg::watchdog());
  SG_CHECK_LAUNCH();
}

}  // namespace ch12

// Chapter 12, step 6 - the final kernel: a warp-specialized single-pass scan at a copy's speed.
//
// One persistent block per SM whose warps have one job each:
//
//   producer warp     bulk-copies tile after tile into a ring of S shared-memory stages and
//                     asks the L2 for the block's next tile with each copy        (produce)
//   2 look-back warps take turns resolving each tile's prefix from the other blocks' status
//                     words (chapter 09's warp look-back)         (look_back_warp, pipeline.cuh)
//   16 compute warps  reduce tile k the moment it lands and publish its aggregate, then scan
//                     tile k - L, whose prefix has come meanwhile, and store it       (compute)
//
// so that loading, waiting for predecessors and scanning overlap instead of taking turns.
// Tiles are dealt round-robin (block b takes b, b + G, b + 2G, ...), so the producer knows its
// next tile without a round trip to a counter; the last two rounds are drawn by ticket.
//
// Model: reads n, writes n, plus one status word per 32 KiB tile -> 1.0x copy. Work: about 3n
// operator applications (a reduce when the tile lands, then a reduce and a rescan).
#pragma once

#include "05_block_scan/block_scan.cuh"
#include "12_warp_specialized_scan/pipeline.cuh"
#include "common/launch.cuh"

#include <cuda_runtime.h>

#include <cstddef>
#include <map>
#include <stdexcept>
#include <string>

namespace ch12 {

inline constexpr int kLookBackWarps = 2;  // two take turns, with the words a sector apart (step 4: 2% at 2^26, H100)
template <int kComputeWarps>
inline constexpr int kBlockThreads = 32 * (kComputeWarps + 1 + kLookBackWarps);
template <typename T, int kComputeWarps>
inline constexpr std::size_t kTileItems = static_cast<std::size_t>(32 * kComputeWarps) * kItems<T>;
template <typename T>
using SectorStatus = StridedStatus<T, kStatusStride<T, 32>>;  // each status word on a 32-byte sector (step 4)

// A thread's items kept in the order it read them from the stage. read_stage puts the swizzled
// vectors back in order with selects over every register; a scan needs its items in order only
// across the vectors, not inside each. So each vector is reduced and rescanned where it lies, and
// only the 4 vector totals are put in order: a quarter of the selects (1% faster at 2^26 on an
// H200, level on an H100; selects were 124 of the 411 instructions a warp issued per tile).
template <typename T, int kComputeThreads>
struct ItemsAsLaid {
  static constexpr int kVectors = kBytesPerThread / 16;
  static constexpr int kPerVector = kItems<T> / kVectors;
  using Scan = ch05::BlockScan<T, kComputeThreads, kItems<T>, ComputeBarrier<kComputeThreads>>;
  using OfVector = ch05::BlockScan<T, 32, kPerVector>;  // its per-thread phases, for one vector
  using OfTotals = ch05::BlockScan<T, 32, kVectors>;    // ... and for the vector totals

  // chapter 05's reduce, leaving what comes before each warp in warp_before (valid in warp 0)
  template <typename Op>
  __device__ static T reduce(const T (&items)[kItems<T>], Op op, typename Scan::TempStorage& temp, T* warp_before) {
    T totals[kVectors];
    vector_totals(items, op, totals);
    return Scan::reduce_thread_totals(OfTotals::thread_reduce(totals, op), op, temp, warp_before);
  }
  // chapter 05's scan_after_reduce: this warp's half of phase 2, then the rescan; no barrier
  template <bool kExclusive, typename Op>
  __device__ static void scan_after_reduce(T (&items)[kItems<T>], Op op, T before_warp) {
    T totals[kVectors];
    vector_totals(items, op, totals);
    T running = Scan::before_thread_after_reduce(OfTotals::thread_reduce(totals, op), op, before_warp);
    T before[kVectors];  // before[v]: everything before this thread's vector v (tile order)
#pragma unroll
    for (int v = 0; v < kVectors; ++v) before[v] = running, running = op(running, totals[v]);
    xor_permute(before, swizzle_of_thread<kVectors>());  // back to the order read
#pragma unroll
    for (int j = 0; j < kVectors; ++j) {
      T vector[kPerVector];
      copy_vector(vector, items, j);
      OfVector::template rescan<kExclusive>(vector, op, before[j]);
#pragma unroll
      for (int i = 0; i < kPerVector; ++i) items[j * kPerVector + i] = vector[i];
    }
  }

 private:
  template <typename Op>
  __device__ static void vector_totals(const T (&items)[kItems<T>], Op op, T (&totals)[kVectors]) {
#pragma unroll
    for (int j = 0; j < kVectors; ++j) {
      T vector[kPerVector];
      copy_vector(vector, items, j);
      totals[j] = OfVector::thread_reduce(vector, op);
    }
    xor_permute(totals, swizzle_of_thread<kVectors>());  // register j held the stage's vector j ^ s
  }
  __device__ static void copy_vector(T (&vector)[kPerVector], const T (&items)[kItems<T>], int j) {
#pragma unroll
    for (int i = 0; i < kPerVector; ++i) vector[i] = items[j * kPerVector + i];
  }
};

// The block's shared state: the ring (pipeline.cuh) and what the compute warps keep per tile.
template <typename T, int kComputeWarps>
struct Control : Ring<T> {
  using Laid = ItemsAsLaid<T, 32 * kComputeWarps>;
  // The reduces alternate between two storages: with no barrier of the block before a store,
  // the next reduce could otherwise overwrite warp totals that warp 0 is still reading.
  typename Laid::Scan::TempStorage reduce_storage[2];
  // Per stage, what comes before each compute warp inside its tile (the reduce leaves it), so
  // that the scan a lag later needs no barrier: each warp scans from its own prefix.
  T warp_before[kMaxStages][kComputeWarps];
};

#if SG_CH12_DEVICE_CODE
// ---- the producer warp -------------------------------------------------------------------------
// Tiles [0, dealt) are dealt round-robin (the first round at least: a ticket is an atomic round
// trip, 0.7 us a launch when it held up the first or the only tile); the rest, the last two
// rounds, are drawn by ticket, each a tile ahead so that it can be prefetched: dealt to the end,
// the blocks' last aggregates came 7 us apart at 2^26 on an H200, 2.5 us drawn so.
template <typename T, typename Op, std::size_t kTileItems>
__device__ void produce(const T* __restrict__ in, const Layout& layout, T* stages, int stage_count, Ring<T>& ring,
                        const PersistentTicket& ticket, unsigned long long dealt, const sg::Watchdog& dog) {
  const int lane = ch03::lane_id();
  const T* aligned_in = in - layout.shift;  // virtual position 0: 16-byte aligned
  unsigned long long next = blockIdx.x;
  for (RingPosition at;; at.advance(stage_count)) {
    const int s = at.stage;
    if (at.round > 0) wait_phase(&ring.empty[s], at.parity ^ 1u, dog, next);  // the last lap's store has read it
    const unsigned long long tile = next;
    if (tile >= layout.tiles) {
      if (lane == 0) ring.tile_of[s] = kNoTile;  // wakes the compute warps with "no more tiles"
      arrive(&ring.full[s]);
      return;
    }
    if (lane == 0) ring.tile_of[s] = tile;
    load_tile<T, Op, kTileItems>(aligned_in, layout, tile, stages + static_cast<std::size_t>(s) * kTileItems, &ring.full[s], lane);
    if (lane == 0) {
      next = tile + gridDim.x < dealt ? tile + gridDim.x : dealt < layout.tiles ? dealt + ticket.draw() : layout.tiles;
      prefetch_tile<T, kTileItems>(aligned_in, layout, next);  // step 5: 2% faster at 2^26 on an H100, 6% on an H200
    }
    next = __shfl_sync(ch03::kFullWarp, next, 0);
  }
}

// ---- the compute warps -------------------------------------------------------------------------
template <typename T, typename Op, bool kExclusive, int kComputeWarps, typename Status>
__device__ void compute(T* __restrict__ out, const Layout& layout, T* stages, int stage_count, int lag,
                        Control<T, kComputeWarps>& control, const Status& status, const sg::Watchdog& dog) {
  constexpr int kThreads = 32 * kComputeWarps;
  constexpr std::size_t kTile = kTileItems<T, kComputeWarps>;
  constexpr std::size_t kWarpPart = 32 * static_cast<std::size_t>(kItems<T>);  // a warp's items: 2 KiB
  using Laid = typename Control<T, kComputeWarps>::Laid;
  const Op op{};
  const int warp = static_cast<int>(threadIdx.x) / 32, lane = ch03::lane_id();
  T* aligned_out = out - layout.shift;  // only ever indexed inside [lo, hi)
  T items[kItems<T>];
  int stored = -1;      // the stage whose bulk store may still be reading it
  unsigned reduces = 0;  // which of the two reduce storages is next
  int waiting = 0;       // tiles reduced, not yet scanned
  RingPosition scan_at;

  // Tile k - L: every thread waits for its prefix itself and scans its items from what comes
  // before its warp. No barrier of the block: on an H200 the compute warps are the busy part of
  // the SM (3% faster at 2^26 there, level on an H100).
  auto scan_and_store = [&] {
    const int s = scan_at.stage;
    const unsigned long long tile = control.tile_of[s];
    T* stage = stages + static_cast<std::size_t>(s) * kTile;
    read_stage<false>(stage, items);
    wait_phase(&control.resolved[s], scan_at.parity, dog, tile);
    Laid::template scan_after_reduce<kExclusive>(items, op, op(control.prefix[s], control.warp_before[s][warp]));
    write_stage<false>(stage, items);
    fence_shared_for_bulk_copies();  // my stores into the stage, before the bulk store reads it
    const TileSpan span = tile_span<T, kTile>(layout, tile);
    if (layout.same_alignment) {
      // Each warp bulk-stores its own part as soon as its lanes are done, with no barrier of the
      // block (3.5% faster at 2^22 on an H200, level on an H100). The stage goes back to the
      // producer once every thread is done with it: after the next reduce (early release).
      __syncwarp();
      const std::size_t part = span.first + warp * kWarpPart;
      store_part(aligned_out, stage, span, part, part + kWarpPart, lane, 32, true, true, lane == 0);
      if (lane == 0) wait_bulk_store_reads<1>();  // the store before this one has read its stage
      if (stored >= 0) arrive(&control.empty[stored]);
      stored = s;
    } else {
      ComputeBarrier<kThreads>::sync();  // every warp's items are in the stage
      store_part(aligned_out, stage, span, span.first, span.first + kTile, static_cast<int>(threadIdx.x), kThreads, false, false, false);
      ComputeBarrier<kThreads>::sync();  // every thread has read the stage
      arrive(&control.empty[s]);
    }
    scan_at.advance(stage_count);
    --waiting;
  };

  for (RingPosition at;; at.advance(stage_count)) {
    const int s = at.stage;
    wait_phase(&control.full[s], at.parity, dog, 0);
    const unsigned long long tile = control.tile_of[s];
    if (tile == kNoTile) {
      if (threadIdx.x == 0) stop_look_back_warps<T, kLookBackWarps>(control, at, stage_count);
      // Warp 0 wrote the warp prefixes of the lag's last tiles before no later reduce's barrier:
      // this one orders them before the scans that read them.
      ComputeBarrier<kThreads>::sync();
      break;
    }
    // Tile k: reduce it and publish its aggregate at once, since other blocks wait for it.
    T* landed = stages + static_cast<std::size_t>(s) * kTile;
    read_stage<false>(landed, items);
    publish_aggregate(control, s, status, tile, Laid::reduce(items, op, control.reduce_storage[reduces++ & 1u], control.warp_before[s]));
    release_stored(control, stored, lane == 0);  // early release: each warp's lane 0 issued its part's store
    if (++waiting > lag) scan_and_store();
  }
  while (waiting > 0) scan_and_store();  // the block's end: the lag, as its prefixes come
  if (lane == 0 && stored >= 0) wait_bulk_store_reads<0>();
}
#endif  // SG_CH12_DEVICE_CODE

template <typename T, typename Op, bool kExclusive, int kComputeWarps>
__global__ void __launch_bounds__(kBlockThreads<kComputeWarps>, kComputeWarps == 16 ? 1 : 2)
    warp_specialized_kernel(const T* __restrict__ in, T* __restrict__ out, Layout layout, int stage_count, int lag,
                            SectorStatus<T> status, PersistentTicket ticket, unsigned long long dealt, sg::Watchdog dog) {
#if SG_CH12_DEVICE_CODE
  __shared__ Control<T, kComputeWarps> control;
  extern __shared__ __align__(128) unsigned char stage_memory[];
  T* stages = reinterpret_cast<T*>(stage_memory);
  if (threadIdx.x == 0) {
    for (int s = 0; s < stage_count; ++s) {
      init_mbarrier(&control.full[s], 32);
      init_mbarrier(&control.empty[s], 32 * kComputeWarps);
      init_mbarrier(&control.reduced[s], 1);
      init_mbarrier(&control.resolved[s], 1);
    }
    fence_mbarrier_init();
  }
  __syncthreads();  // the last barrier of the whole block: from here on each warp keeps to its job
  const int warp = static_cast<int>(threadIdx.x) / 32;
  if (warp < kComputeWarps) compute<T, Op, kExclusive, kComputeWarps>(out, layout, stages, stage_count, lag, control, status, dog);
  else if (warp == kComputeWarps) produce<T, Op, kTileItems<T, kComputeWarps>>(in, layout, stages, stage_count, control, ticket, dealt, dog);
  else look_back_warp<T, Op, kLookBackWarps>(status, control, stage_count, warp - kComputeWarps - 1, dog);
#else
  (void)in, (void)out, (void)layout, (void)stage_count, (void)lag, (void)status, (void)ticket, (void)dealt, (void)dog;
#endif
}

// ---- the host side -----------------------------------------------------------------------------
template <typename T, typename Op, bool kExclusive, int kComputeWarps>
void launch_warp_specialized(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  constexpr auto kernel = warp_specialized_kernel<T, Op, kExclusive, kComputeWarps>;
  constexpr std::size_t kTileBytes = kTileItems<T, kComputeWarps> * sizeof(T);
  static std::map<int, Plan> plans;
  const Plan& plan = plan_launch(plans, kernel, kBlockThreads<kComputeWarps>, kTileBytes, Geometry{0, 0, kComputeWarps == 16 ? 1 : 2});
  if (!plan.bulk_copies) return ch09::tuned_scan<T, Op, kExclusive>(in, out, n, stream);  // before sm_90

  const Layout layout = layout_of(in, out, n, kTileItems<T, kComputeWarps>);
  unsigned long long* counter = nullptr;
  const auto status = lease_status<T, SectorStatus<T>, kStatusStride<T, 32>>(layout.tiles, stream, &counter);
  const unsigned grid = persistent_grid(layout.tiles, plan.resident_blocks);
  const unsigned long long rounds = layout.tiles / grid, dealt = (rounds > 2 ? rounds - 2 : 1) * grid;  // then by ticket
  kernel<<<grid, kBlockThreads<kComputeWarps>, plan.geometry.stages * kTileBytes, stream>>>(
      in, out, layout, plan.geometry.stages, plan.geometry.lag, status, PersistentTicket{counter, layout.tiles - dealt}, dealt, sg::watchdog());
  SG_CHECK_LAUNCH();
}

// The launcher every variant has (device input, device output, n, stream). One block of 16
// compute warps and 32 KiB tiles per SM: half the tiles of two blocks of 8, so half the
// look-backs for the same bytes (before the changes below: 0.7% faster at 2^26 on an H100, 1.4%
// at 2^28 on an H200).
// A launch of fewer 32 KiB tiles than SMs takes two blocks of 16 KiB tiles per SM instead: more
// SMs at work, and a shorter first tile.
template <typename T, typename Op, bool kExclusive>
void warp_specialized_scan(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  const std::size_t whole_sm_blocks = persistent_grid(~0ull, static_cast<unsigned>(sm_count()));  // one per SM (or --grid)
  if (n < whole_sm_blocks * kTileItems<T, 16>) launch_warp_specialized<T, Op, kExclusive, 8>(in, out, n, stream);
  else launch_warp_specialized<T, Op, kExclusive, 16>(in, out, n, stream);
}

}  // namespace ch12

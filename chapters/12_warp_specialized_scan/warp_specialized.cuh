// Chapter 12, steps 2-15 - the warp-specialized single-pass scan.
//
// A persistent block (step 1) whose warps split the work:
//
//   producer warp    bulk-copies whole tiles into a ring of S shared-memory stages, each with
//                    an mbarrier that completes when the tile has landed
//   compute warps    wait for a stage, reduce the tile, publish its aggregate, scan it with
//                    its prefix, write it back into the stage and store it
//   look-back warp   (step 3) resolves each tile's prefix from the other blocks' status words
//                    while the compute warps work on the next stage
//
// so that loading, waiting for predecessors and scanning overlap instead of taking turns
// inside one block, as they do in chapter 09. The steps, each a Design below:
//
//   2  bulk loads       the producer and the ring; the compute warps still look back
//                       themselves (chapter 09's warp look-back, in BlockScan's hook) and store
//                       with ordinary stores
//   3  look-back warp   the compute warps reduce tile k, hand its aggregate over, and scan
//                       tile k - L (L stages behind, still in its stage), whose prefix the
//                       look-back warp has been resolving meanwhile
//   4  bulk stores      the scanned tile goes back to global memory from its stage with one
//                       bulk copy; the stage is free again once the copy has read it
//   5  device tuning    the number of stages from the shared memory per SM, the lag L from
//                       the stages, the grid from the SM count (steps 2-4: a fixed 4 stages,
//                       L = 1, one block per SM)
//   6  early release    a stored stage goes back to the producer once the copy engine has
//                       read it (checked after the next reduce), not a whole tile later at
//                       the next store: one more stage loading (README: Little's law)
//   7  spread status    each tile's status word on an L2 line of its own, and two look-back
//                       warps taking turns: a second warp pays once the look-backs no longer
//                       share the few hot lines every block polls and publishes to
//   8  prefetch         with each load, the producer asks the L2 for the block's next tile: its
//                       bytes come from DRAM a tile earlier, and its load finds them in the L2
//   9  sector status    step 8 with each status word on a 32-byte sector of its own instead of
//                       a line: a look reads 8 lines, not 32, and asks the L2's fabric less
//   10 one block per SM step 9 with one block of 16 compute warps per SM and a 32 KiB tile: half
//                       the tiles, so half the look-backs for the same bytes; its last two
//                       rounds of tiles drawn by ticket (dealt, the blocks' ends spread out)
//   11 shape by size    step 10 where a launch is many rounds of tiles, step 9 where it is few:
//                       a launch of step 10 costs more at its start and end
//   12 barrier-free     step 11 whose reduce keeps each warp's prefix inside the tile, so that
//      scan             the scan, a lag later, crosses no barrier of the block: each warp scans
//                       its items from its own prefix. The compute warps are the busy part of an
//                       SM on the H200, and the lag's scans, one after another, are the end of
//                       a launch
//   13 items as laid    step 12 whose compute warps keep each thread's items in the order read
//                       from the stage: only the vectors' totals are put in order, a quarter of
//                       the selects the swizzled read cost
//   14 stores by size   a launcher, not a Design: step 9's kernel below 2 rounds of 32 KiB tiles
//                       per SM, step 13's kernel with each compute warp bulk-storing its own part
//                       of a tile (WarpStores) up to 48 rounds, step 13's kernel above
//                       (stores_by_size_scan)
//   15 scanned when     step 14 whose kernel above 48 rounds scans each tile alone when it lands
//      landed           and publishes its aggregate before the rescan: what is left once the
//                       prefix comes is a map, op(P, x), and a store (scanned_when_landed_scan)
//
// The sweep and the diagnostics (variants.cu) change one knob of step 6, 7, 8, 9 or 10 each: W
// look-back warps taking turns, status words packed or spread, runs of K tiles per block of which
// only the first looks back, or with one status word per run, P bulk stores left reading, stages
// filled by the producer's lanes (cp.async) instead of one bulk copy, tiles drawn by ticket (once a
// stage is free, or a tile ahead and prefetched), tiles prefetched further ahead or only half of
// each, status words 16 bytes apart (step 9: 32), step 9 with its last rounds of tiles drawn by
// ticket or with 64 tiles per look, steps 9 and 10 with the compute warps looking back for the
// lag's tiles once the tiles run out, step 10 with a shorter lag over its last rounds, with
// look-backs that stop at the block's own previous tile (over every tile or the last rounds, or by
// the compute warps at the end), with its status words polled from the global state space, or
// with no prefetch in the ring's first lap or with no wait for each store at the end, step 12's
// scan without block barriers in either shape (and with each compute warp bulk-storing its own
// part of a tile), step 13's kernel with warp stores, with no wait for each store at the end,
// with a lag of five, or with the tiles of its last rounds (or every tile) scanned alone when
// they land, one warp that turns every A into a P for the grid,
// look-backs that publish the P of every tile they passed over, or that walk on while they wait,
// wider looks for the first tiles,
// the ring's first X loads issued alone, the second lap asked of the L2 once the first has landed,
// the lag held in the L2 (a stage freed at its reduce, the tile read again from the L2 for its
// scan); and, for the ceiling of experiments.md, no look-back at all, or no scan at all (the tiles
// copied through the stages, dealt round-robin, in runs, or by ticket).
//
// Which tiles. Step 1 hands out tiles by ticket; here block b takes tiles b, b + G, b + 2G, ...
// (G blocks): the producer knows its tiles without a round trip to a global counter. Drawing
// tickets in the producer works too, once a stage is free (the sweep's tiles_by_ticket), and
// balances a copy through the stages, but with the look-back it gains nothing (experiments.md).
// Dealt round-robin, a tile's predecessors in flight are the other blocks' current tiles.
// The price: a block may wait for a block that has not started, so the grid is never larger
// than what fits on the GPU at once (the launcher sizes it so); were the GPU shared with
// other work, the bounded waits would report the stuck tile rather than hang.
//
// Layout. Bulk copies need 16-byte aligned addresses, and 16-byte multiples. Tiles are cut from
// the 16-byte boundary at or below `in`: element i sits at position i + shift of a "virtual"
// array that starts aligned, tile t covers virtual positions [t * kTile, (t + 1) * kTile), and
// every tile but the first and the last is one aligned run. The producer asks for the aligned
// middle of each tile with a bulk copy first, then loads the few elements before the first and
// after the last 16-byte boundary (fewer than 16 bytes each) one by one, and fills positions
// outside the array with the operator's identity. Stores do the same when `out` has the
// alignment of `in` (then the same run is aligned in both), and use ordinary stores for every
// element otherwise.
//
// Model: reads n + writes n, plus a status word per tile -> 1.0x copy; work ~3n operator
// applications (reduce, then scan: reduce and rescan); no chain between tiles.
#pragma once

#include "03_hillis_steele/warp_scan.cuh"
#include "05_block_scan/block_scan.cuh"
#include "09_decoupled_lookback/tuned.cuh"
#include "12_warp_specialized_scan/pipeline.cuh"
#include "common/device_buffer.cuh"  // sg::current_device
#include "common/operators.hpp"
#include "common/launch.cuh"
#include "common/watchdog.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace ch12 {

inline constexpr int kMaxStages = 16;
inline constexpr int kMaxScanBuffers = 4;  // (the sweep's lag in the L2)
inline constexpr unsigned long long kNoTile = ~0ull;  // what the producer hands on when its tiles run out

// The compile-time shape of a block: the compute warps, 64 bytes per thread (16 int32 or float,
// 8 int64), then the producer warp and the look-back warps. A Design names its compute warps:
// 8 in steps 2-9 (a 16 KiB tile, two blocks per SM), 16 in step 10 (a 32 KiB tile, one block).
inline constexpr int kBytesPerThread = 64;

template <typename T>
inline constexpr int kItems = kBytesPerThread / static_cast<int>(sizeof(T));
template <typename Design>
inline constexpr int kComputeThreads = Design::kComputeWarps * 32;
template <typename Design>
inline constexpr int kTileBytes = kComputeThreads<Design> * kBytesPerThread;
template <typename T, typename Design>
inline constexpr std::size_t kTileItems = static_cast<std::size_t>(kComputeThreads<Design>) * kItems<T>;
template <typename T>
inline constexpr std::size_t kVector = 16 / sizeof(T);  // elements per 16 bytes

// What the ladder adds, step by step.
template <int kLookBackWarpsOf, bool kBulkStoresOf, bool kEarlyReleaseOf = false, int kStoresInFlightOf = 1, int kTilesPerLookBackOf = 1,
          int kLookBackTilesPerLaneOf = 1, unsigned kPollDelayNsOf = 0, int kStatusBytesOf = 0>
struct Design {
  static constexpr int kLookBackWarps = kLookBackWarpsOf;  // 0: the compute warps look back themselves; W: tiles take turns among W warps
  static constexpr bool kLookBackWarp = kLookBackWarps > 0;
  static constexpr bool kBulkStores = kBulkStoresOf;
  static constexpr bool kEarlyRelease = kEarlyReleaseOf;  // a stored stage is freed after the next reduce, not the next store
  static constexpr int kStoresInFlight = kStoresInFlightOf;  // bulk stores left reading their stages while the warps go on
  static constexpr int kTilesPerLookBack = kTilesPerLookBackOf;  // a block takes runs of K consecutive tiles, one look-back per run
  static constexpr int kLookBackTilesPerLane = kLookBackTilesPerLaneOf;  // a look reads 32 x this many status words
  static constexpr unsigned kPollDelayNs = kPollDelayNsOf;  // between looks at a window not yet ready
  static constexpr int kStatusBytes = kStatusBytesOf;  // 0: status words packed (chapter 09); B: one word per B bytes
  static constexpr bool kTrace = false;  // time the waits (Traced<Design>, main.cu --trace)
  static constexpr int kComputeWarps = 8;  // a 16 KiB tile
  static constexpr int kBlocksPerSm = 2;   // what the kernel is compiled for (its launch bounds)
  static constexpr int kBlockThreads = 32 * (kComputeWarps + 1 + kLookBackWarps);  // then the producer, then the look-back warps
  static constexpr bool kCopyOnly = false;  // (diagnostic) the compute warps store each tile as it landed
  static constexpr bool kChunkedTiles = false;  // (diagnostic, no look-back) block b takes one contiguous run of tiles
  static constexpr bool kTicketedTiles = false;  // (the sweep) the producer draws each tile by ticket (step 1's) once a stage is free
  static constexpr bool kThreadLoads = false;  // (the sweep) the producer's lanes fill a stage with cp.async, not one bulk copy
  static constexpr bool kRunStatus = false;  // (the sweep) a status word per run of K tiles, not per tile
  static constexpr int kPrefetchAhead = 0;  // (step 8: 1) with each load, the L2 is asked for the block's tile D loads ahead
  static constexpr int kTicketTailRounds = 0;  // (the sweep) the last R rounds of tiles (and the part round) drawn by ticket, not dealt
  static constexpr unsigned kPrefetchBytes = ~0u;  // (the sweep) ... of which only the first this many bytes
  static constexpr bool kPrefetchAfterFirstLap = false;  // (the sweep) ... but not with the ring's first S loads
  static constexpr int kFirstLapPrefetch = 0;  // (the sweep) ... and the ring's first X loads each ask for one tile of the second lap too
  static constexpr int kSecondLapPrefetch = 0;  // (the sweep) D > 0: once the first lap's tile W has landed, the L2 is asked for D more tiles of the second lap
  static constexpr int kSecondLapPrefetchAfter = 0;  // ... W
  static constexpr int kFirstLoadsAlone = 0;  // (the sweep) X > 0: the ring's first lap issues X loads, then the rest once the X-th has landed
  static constexpr bool kGlobalPolls = false;  // (the sweep) status words polled from the global state space (GlobalPollStatus)
  static constexpr bool kPrefixWarp = false;  // (the sweep) block 0 has one more warp: the grid's prefix warp
  static constexpr bool kPrefixLaneRuns = false;  // (the sweep) ... which reads a run of tiles per lane
  static constexpr int kScanBuffers = 0;  // (the sweep) 0: the lag waits in the stages; B: in the L2, read again into B scan buffers
  static constexpr int kLagSlots = 0;  // (the sweep) ... and Q slots hand the lagging tiles to the look-back warps
  static constexpr bool kL2Hints = false;  // (the sweep) ... with L2 eviction priorities on the loads, rereads and stores
  static constexpr unsigned kFullArrivals = 32;  // arrivals that complete a stage's `full` phase (+ the bytes)
  static constexpr bool kEveryThreadFrees = true;  // every compute thread arrives on a stage's `empty`, not thread 0 alone
  static constexpr bool kDrainLooksBack = false;  // (the sweep) once the tiles run out, the compute warps look back for the lag's tiles
  static constexpr bool kDrainToOwnTiles = false;  // ... each only as far as the block's tile before it (DrainLooksToOwnTiles)
  static constexpr int kEndLag = 0;  // (the sweep) a lag of this many tiles instead of L ...
  static constexpr int kEndLagRounds = 0;  // ... over the last R rounds of tiles
  static constexpr int kStartLagStep = 0;  // (the sweep) X > 0: a lag of 1 at the block's first tile, one more every X tiles up to L
  static constexpr int kOwnTileRounds = 0;  // (StopAtOwnTile) over the last R rounds of tiles, a look-back stops at the block's previous tile
  static constexpr int kOwnTileSlabs = 0;  // ... reading the status words between the two in one look of this many slabs of 32
  static constexpr bool kEndWithoutStoreWaits = false;  // (the sweep) once the tiles run out, the lag's stores are not waited for one by one
  static constexpr int kWarpPrefixSlots = 0;  // (step 12) P > 0: the reduce keeps each warp's prefix in the tile, for up to P stages
  static constexpr bool kWarpStores = false;  // (the sweep) each compute warp bulk-stores its own part of a scanned tile, with no barrier
  static constexpr bool kScanWhenLanded = false;  // (the sweep) a tile is scanned alone when it lands; its prefix is combined in a lag later
  static constexpr bool kFusedEnd = false;  // (the sweep) ... and once the tiles run out, the lag's tiles are mapped and stored together
  static constexpr bool kItemsAsLaid = false;  // (step 13) the items kept in the order read from the stage (ItemsAsLaid)
  static constexpr int kLandedScanRounds = 0;  // (the sweep) the last R rounds of tiles scanned alone when they land (LastRoundsScannedWhenLandedOf)
  static constexpr bool kClusterPairs = false;  // (the sweep) two blocks of a cluster share a status word per pair of tiles (ClusterPairsOf)
  using LookBack = ch09::WarpLookBack<0, kPollDelayNs, kLookBackTilesPerLane>;
};
using BulkLoads = Design<0, false>;          // step 2
using LookBackWarp = Design<1, false>;       // step 3
using BulkStores = Design<1, true>;          // steps 4 and 5
using EarlyRelease = Design<1, true, true>;  // step 6
// Step 6 with W look-back warps and a status word per B bytes (and, in the sweep, runs of K tiles)
template <int kWarps, int kBytesPerStatus = 128, int kTilesPerLookBack = 1>
using Spread = Design<kWarps, true, true, 1, kTilesPerLookBack, 1, 0, kBytesPerStatus>;
using SpreadStatus = Spread<2>;  // step 7: two look-back warps, a 128-byte L2 line per status word
using TilePairs = Design<1, true, true, 1, 2>;  // (the sweep)
// The sweep: step 7's spread words and W look-back warps, with one status word per run of K
// consecutive tiles, which a block takes together: published once the run is reduced, resolved
// by one look-back, each of the K tiles' prefixes then known locally. Half the look-backs, each
// published a tile later (experiments.md: the look-back's two limits).
template <int kWarps, int kTilesPerRun, bool kTicketedTilesOf = false>
struct RunStatus : Spread<kWarps, 128, kTilesPerRun> {
  static constexpr bool kRunStatus = true;
  static constexpr bool kTicketedTiles = kTicketedTilesOf;
};
using StatusPerPair = RunStatus<2, 2>;
// Diagnostic: a design with every prefix the identity, so each tile is scanned on its own and
// no block waits for another: what its data path streams at without the look-back.
template <typename Base>
struct WithoutLookBackOf : Base {
  struct LookBack {
    template <typename T, typename Op, typename Status>
    __device__ static T resolve(const Status&, std::size_t, T, Op, const sg::Watchdog&, bool, ch09::LookCounts* = nullptr) {
      return Op::template identity<T>();
    }
  };
};
using WithoutLookBack = WithoutLookBackOf<EarlyRelease>;
// Diagnostic: no scan at all, the tiles go through the stages and straight back out: what
// the bulk copies and the ring stream at by themselves (a copy, checked as one).
template <int kStoresInFlightOf = 1, bool kBulkStoresOf = true, bool kThreadLoadsOf = false, bool kChunkedTilesOf = false,
          bool kTicketedTilesOf = false>
struct CopyThrough : Design<0, kBulkStoresOf, false, kStoresInFlightOf> {
  static constexpr bool kChunkedTiles = kChunkedTilesOf;
  static constexpr bool kTicketedTiles = kTicketedTilesOf;
  static constexpr bool kThreadLoads = kThreadLoadsOf;
  static constexpr unsigned kFullArrivals = kThreadLoads ? 64 : 32;
  static constexpr bool kCopyOnly = true;
};
// The sweep: step 6 with the stages filled by the producer's lanes, 16 bytes per cp.async.
struct ThreadLoads : EarlyRelease {
  static constexpr bool kThreadLoads = true;
  static constexpr unsigned kFullArrivals = 64;  // each lane: once after its ordinary stores, once when its copies land
};
// The sweep and a diagnostic: a design (step 6 or 7, or step 6 without the look-back) with its
// tiles drawn by ticket, once a stage is free.
template <typename Base>
struct TicketedTilesOf : Base {
  static constexpr bool kTicketedTiles = true;
};
using TicketedTiles = TicketedTilesOf<EarlyRelease>;
using TicketedWithoutLookBack = TicketedTilesOf<WithoutLookBack>;
// Step 8 and the sweep: a design whose producer, with each load, asks the L2 for the tile it will
// load kAhead tiles later (chapter 09's bulk prefetch: no shared memory, no registers), or in the
// sweep for only its first kBytes: fewer requests across the L2's fabric, and fewer bytes on
// their way early (experiments.md: at 2^28 the fabric holds step 8 back on the H200).
template <int kAhead, typename Base, unsigned kBytes = ~0u>
struct PrefetchAhead : Base {
  static_assert(!Base::kTicketedTiles && !Base::kChunkedTiles, "tiles dealt round-robin: the producer knows its next tiles");
  static constexpr unsigned kPrefetchBytes = kBytes;
  static constexpr int kPrefetchAhead = kAhead;
};
// Step 8: step 7, and with each load the producer asks the L2 for the next tile it will load
// (G tiles on): that tile's bytes leave DRAM a tile earlier, while the stages are still busy,
// and its bulk load later finds them in the L2 (README: the next tile from the L2).
using PrefetchNextTile = PrefetchAhead<1, SpreadStatus>;
// Step 9: step 8 with a status word per 32-byte sector, not per 128-byte line. A look at 32 words
// touches 8 lines instead of 32: a quarter of the requests, which cross the fabric between the
// L2's two halves as the data does (experiments.md: at 2^28 the fabric holds step 8 back on the
// H200).
// Four words share a line again (packed, sixteen do), but no two share a sector.
using SectorStatus = PrefetchAhead<1, Spread<2, 32>>;
// The sweep: a prefetching design (step 9) whose tiles are dealt round-robin but for the last
// kRounds full rounds and the part round after them, which the blocks draw by ticket, each a tile
// ahead and prefetched (as TicketsAhead draws every tile). The question it asks: dealt
// round-robin, every block takes the same number of tiles, and the blocks' last aggregates come
// about 5 us apart (the timeline of --trace); does the launch wait for a straggler? No: drawn by
// ticket, the last aggregates come half as far apart and the launch ends no sooner. It ends one
// look-back after the last aggregate, whoever reduced it (experiments.md: the end of a launch).
template <int kRounds, typename Base>
struct TicketTail : Base {
  static_assert(Base::kPrefetchAhead == 1 && Base::kTilesPerLookBack == 1 && !Base::kTicketedTiles && !Base::kChunkedTiles &&
                    !Base::kThreadLoads,
                "round-robin tiles, prefetched a tile ahead by one bulk copy");
  static constexpr int kTicketTailRounds = kRounds;
};
// Step 10: one block per SM with twice the compute warps (16), and so a tile of 32 KiB: half as
// many tiles for the same bytes, and so half the look-backs, each asking the L2 for what step 9's
// does. The block holds the SM's shared memory alone (whole_sm_geometry: 7 stages, a lag of 4).
template <typename Base>
struct WholeSm : Base {
  static constexpr int kComputeWarps = 2 * Base::kComputeWarps;
  static constexpr int kBlocksPerSm = 1;
  static constexpr int kBlockThreads = Base::kBlockThreads + 32 * Base::kComputeWarps;
};
// With 132 blocks of 32 KiB tiles, dealt round-robin, the blocks' last aggregates came 7 us apart
// at 2^26 on the H200 (step 9's: 5 us), and the last block ended the launch 5 us after the
// median one: with tiles this large, the tiles a block takes at the end are worth drawing by
// ticket (TicketTail, README: step 10).
using WholeSmTicketTail = TicketTail<2, WholeSm<SectorStatus>>;  // step 10
using WholeSmPackedTicketTail = TicketTail<2, WholeSm<PrefetchAhead<1, Design<2, true, true>>>>;  // (the sweep) step 10, status words packed
// The sweep: a prefetching design (step 10) whose first S loads, which fill the empty ring at the
// start of a launch, ask the L2 for nothing more: the first tiles' bytes do not share DRAM with
// the tiles G on, so they land sooner. (The tiles G on are still loaded when their turn comes.)
// They land a little sooner (3.3 against 3.8 us, median block, H200 at 2^26) and the launch is no
// shorter: DRAM is busy from the start either way.
template <typename Base>
struct PrefetchAfterFirstLap : Base {
  static_assert(Base::kPrefetchAhead > 0 && !Base::kTicketedTiles, "a prefetching design");
  static constexpr bool kPrefetchAfterFirstLap = true;
};
// The sweep: a prefetching design whose first X loads, which fill the empty ring, each also ask
// the L2 for one tile of the ring's second lap (the load at position p for position S + 1 + p,
// the tile the normal prefetch asks for only a lap later). PM sampling of one launch of step 12 at
// 2^26 on an H100 (experiments.md: where a launch's DRAM time goes) shows the DRAM reading at
// 95-98% while the empty ring fills, then busy at 43-72% for about 9 us while the full ring waits
// for its first scans and stores, then at about 90% to the end. The question: does the first lap
// ask for too little? No: with more asked for, the fill runs longer, the same dip follows, and
// the scan is slower at every size.
template <int kTiles, typename Base>
struct FirstLapPrefetchOf : Base {
  static_assert(Base::kPrefetchAhead == 1 && Base::kTilesPerLookBack == 1 && !Base::kTicketedTiles && !Base::kChunkedTiles &&
                    !Base::kPrefetchAfterFirstLap,
                "round-robin tiles, prefetched a tile ahead");
  static constexpr int kFirstLapPrefetch = kTiles;
};
// The sweep: a design whose producer, in the ring's first lap, issues X loads and then waits for
// the last of them to land before it issues the rest. The trace of step 12's start (H100, 2^26)
// shows the blocks' first tiles landing 2.8-8.2 us after the start: the DRAM serves the whole
// first lap, S tiles a block, in its own order, and a tile's prefix waits for the last of its
// predecessors' first tiles. With X tiles a block asked for at first, the first tiles have the
// DRAM to themselves: do they land together, and do the first prefixes and stores come sooner?
template <int kLoads, typename Base>
struct FirstLoadsAloneOf : Base {
  static_assert(kLoads > 0 && !Base::kThreadLoads && !Base::kChunkedTiles && !Base::kTicketedTiles, "bulk loads of dealt tiles");
  static constexpr int kFirstLoadsAlone = kLoads;
};
// The sweep: a prefetching design whose producer, once the ring's first lap is issued, waits for
// the lap's tile W to land and then asks the L2 for D more tiles of the second lap, beyond the one
// the lap's last load asked for. The trace of step 12's start (H100, 2^26, median block) says that
// the lag's last tile lands at 13.6 us, at the end of the first lap's fill, since the DRAM serves
// the whole lap's tiles together; then the ring stands full, the first stores free stages about
// 2 us later, and each freed stage's load waits a whole round trip to the DRAM: the dip of the PM
// samples. Asked for once the fill is done (not with it, as FirstLapPrefetchOf does, which delays
// the fill), the second lap's tiles could be in the L2 by the time the stages free.
template <int kAfterTile, int kTiles, typename Base>
struct SecondLapPrefetchOf : Base {
  static_assert(Base::kPrefetchAhead == 1 && Base::kTilesPerLookBack == 1 && !Base::kTicketedTiles && !Base::kChunkedTiles && kTiles > 0 &&
                    kTiles <= 32,
                "round-robin tiles, prefetched a tile ahead");
  static constexpr int kSecondLapPrefetch = kTiles;
  static constexpr int kSecondLapPrefetchAfter = kAfterTile;
};
// The sweep: a design whose look-backs poll the status words with global loads, not generic ones
// (GlobalPollStatus below).
template <typename Base>
struct GlobalPolls : Base {
  static constexpr bool kGlobalPolls = true;
};
// The sweep: a design whose compute warps, once the block's tiles have run out, look back for the
// lag's tiles themselves, side by side, kSlabs x 32 tiles per look, instead of waiting for the
// look-back warps to reach them one after another (look_back_the_lag below). Slower, on the
// H100s it ran on (README: step 11).
template <typename Base, int kSlabs = 1>
struct DrainLooksBack : Base {
  static_assert(Base::kLookBackWarp && !Base::kRunStatus && Base::kScanBuffers == 0, "look-back warps, a status word per tile, the lag in the stages");
  static constexpr bool kDrainLooksBack = true;
  using DrainLookBack = ch09::WarpLookBack<0, 0, kSlabs>;
};
// The sweep: DrainLooksBack without the walks. Once the tiles run out, compute warp w looks only at
// the status words between the w-th waiting tile and the block's tile before it (the last tile
// it scanned, or the waiting tile before), one look of kSlabs x 32 words each, all side by side
// (look_at_the_lag below); thread 0 then chains the block's own prefixes through them in shared
// memory. No tile of the lag waits for another block's P, only for the A's before it; and the
// look-back warps, once told, hand the lag on instead of resolving it a second time. Slower on the
// H200 (1.08 against 1.06x copy at 2^26): the scans of the whole lag now wait for its last look,
// where step 10 scans and stores its oldest tiles while the newest are still being resolved.
template <typename Base, int kSlabs = 8>
struct DrainLooksToOwnTiles : DrainLooksBack<Base> {
  static constexpr bool kDrainToOwnTiles = true;
  static constexpr int kOwnTileSlabs = kSlabs;
};
// The sweep: a design whose lag shrinks to kLag tiles over the last kRounds rounds of tiles, so
// that fewer of a block's tiles wait for their prefixes after its last aggregate: with a lag of
// four and two look-back warps, the end of a block is two look-backs deep. Slower on the H200,
// no faster on the H100: the prefixes come no sooner, and the compute warps wait for them earlier
// (README: step 11).
template <int kLag, int kRounds, typename Base>
struct ShortLagAtTheEnd : Base {
  static_assert(Base::kLookBackWarp && !Base::kRunStatus && Base::kScanBuffers == 0, "look-back warps, a status word per tile, the lag in the stages");
  static constexpr int kEndLag = kLag;
  static constexpr int kEndLagRounds = kRounds;
};
// The sweep: a design whose look-back, over the last kRounds rounds of tiles (or over every tile:
// kEveryRound), stops at the block's own previous tile instead of walking back to the nearest P
// (LookBackToOwnTile below). The previous tile's P is the other look-back warp's, and reaches this
// one through shared memory, with no round trip; the status words between the two tiles (G - 1
// of them, dealt round-robin) are read in one look of kSlabs x 32 words. The question it asks:
// is a look-back long because it walks? No: on the H200 a look-back that never walks takes as
// long as step 10's (3.9 us at 2^26: one look of 131 words and its waits, against 2.5 windows of
// 32), and the launch is no shorter, over every tile or over the last four rounds, with the
// status words a sector apart or packed, and on three H200s of eight it is much slower (README:
// what is left). A tile's P waits for every tile before it to be reduced, whoever resolves it.
inline constexpr int kEveryRound = 1 << 24;
template <int kRounds, typename Base, int kSlabs = 8>
struct StopAtOwnTile : Base {
  static_assert(Base::kLookBackWarp && !Base::kRunStatus && Base::kTilesPerLookBack == 1 && Base::kScanBuffers == 0 && !Base::kPrefixWarp &&
                    !Base::kDrainLooksBack && Base::kEndLag == 0,
                "look-back warps, a status word per tile, the lag in the stages");
  static constexpr int kOwnTileRounds = kRounds;
  static constexpr int kOwnTileSlabs = kSlabs;
};
// Step 12's scan: a design whose reduce keeps what comes before each compute warp inside the tile
// (chapter 05's reduce with warp_before), so that the scan of the tile, a lag later, needs no
// barrier of the block: each warp scans its own items from its own prefix (scan_after_reduce),
// and waits for the tile's prefix itself. Chapter 05's scan crosses two barriers, with warp 0
// alone scanning the warp totals and waiting for the prefix in between while the other warps
// idle. On the H200 the compute warps are the busy part of an SM (busy about 90% of the time in
// step 10), and at the end of a launch they scan the lag's tiles one after another with nothing
// else to do: the traced end of step 10 waits for prefixes 0.2 us of its 7 (README: step 12).
inline constexpr int kMaxWarpPrefixStages = 8;
template <typename Base>
struct WarpPrefixesFromTheReduce : Base {
  static_assert(Base::kLookBackWarp && !Base::kRunStatus && Base::kScanBuffers == 0 && !Base::kDrainLooksBack && Base::kEndLag == 0,
                "look-back warps, a status word per tile, the lag in the stages");
  static constexpr int kWarpPrefixSlots = kMaxWarpPrefixStages;
};
// Step 13: step 12's scan with each thread's items kept in the order it read them from the
// stage, its vectors swizzled (ItemsAsLaid): a quarter of the selects.
template <typename Base>
struct ItemsAsLaidOf : Base {
  static_assert(Base::kWarpPrefixSlots > 0 && !Base::kScanWhenLanded, "step 12's reduce, and its scan a lag later");
  static constexpr bool kItemsAsLaid = true;
};
// Step 15's kernel (R covering every tile: kEveryRound), and the sweep's: step 13's kernel with
// the tiles of its last R rounds scanned alone when they land, as ScanWhenLandedOf scans every
// tile, and all others reduced at landing and scanned a lag later as before. A block's end is its lag's tiles scanned one after another as their prefixes come
// (README: step 12); the last prefix comes about 4.4 us after the block's last aggregate, and
// what follows it is that tile's whole scan. Scanned when it landed, what is left after the
// prefix is a map, op(P, x) for every element. Step 12's kernel scanning every tile at landing
// was slower on the H200 (experiments.md: the tile scanned when it lands); step 13's compute
// warps issue a quarter fewer instructions. The landing scan publishes the tile's aggregate as soon as the reduce
// would, before its rescan. Every warp reads the reduce's storage after its barrier, so the next
// reduce may not write it before the next barrier of the block: the store's (step 13), or the
// next reduce's with the two storages alternating (WarpStores). Measured: on three H200s, the
// last 8 rounds or every tile (kEveryRound) scanned so run 0.3-0.6% faster than step 13's kernel
// from 56M elements up, level on three H100s; with warp stores, slower at 4M-16M elements
// (experiments.md: step 13's kernel scanning when the tile lands).
template <int kRounds, typename Base>
struct LastRoundsScannedWhenLandedOf : Base {
  static_assert(Base::kItemsAsLaid && Base::kWarpPrefixSlots > 0 && !Base::kScanWhenLanded && !Base::kClusterPairs,
                "step 13's kernel (or step 14's middle shape)");
  static constexpr int kLandedScanRounds = kRounds;
};
// The sweep: blocks in clusters of two, on two SMs of one GPC, and a status word per pair of
// tiles. Tiles are dealt round-robin as before, so the cluster's two blocks (ranks 0 and 1, grid
// blocks 2c and 2c + 1) take tiles 2p and 2p + 1 of every round: pair p. The two hand each other
// their aggregates through distributed shared memory, rank 1 publishes the pair's aggregate, and
// a look-back warp of rank 0 resolves the pair's prefix and writes rank 1's (look_back_pairs).
// As with step 10's 32 KiB tiles, half the look-backs for the same bytes, but with no larger
// tile to land: a round of tiles is half as many words, so a look-back's nearest P should be
// about half as many windows back. It is (1.5 windows a look-back instead of 2.5 on the H200 at
// 2^26), but a pair's aggregate waits for the later of two SMs, the look-backs find windows
// still waiting twice as often, and the scan is 3% slower there (experiments.md: pairs of SMs).
template <typename Base>
struct ClusterPairsOf : Base {
  static_assert(Base::kLookBackWarp && Base::kWarpPrefixSlots > 0 && !Base::kScanWhenLanded && Base::kTilesPerLookBack == 1 &&
                    !Base::kTicketedTiles && Base::kTicketTailRounds == 0 && !Base::kChunkedTiles && Base::kOwnTileRounds == 0 &&
                    !Base::kDrainLooksBack && !Base::kPrefixWarp && Base::kScanBuffers == 0,
                "step 12's scan, look-back warps, tiles dealt round-robin to the end");
  static constexpr bool kClusterPairs = true;
};
// What the two ranks hand each other (ClusterPairsOf), per stage: the other rank's aggregate of
// the stage's tile, and the barrier its bytes land on (look_back_pairs).
template <typename T>
struct PairControl {
  Mbarrier partner_reduced[kMaxWarpPrefixStages];
  T partner_aggregate[kMaxWarpPrefixStages];
};

// The sweep: a look again at a window that was not ready re-reads only the lanes still in X
// (chapter 09's kRepollWaitingOnly): fewer requests to the L2's hottest lines. Optionally the
// look-backs also sleep before their first look, or between looks (each answer then later).
template <typename Base, unsigned kFirstLookNs = 0, unsigned kRepollNs = Base::kPollDelayNs>
struct RepollWaitingOf : Base {
  static_assert(Base::kLookBackWarp && Base::kOwnTileRounds == 0 && !Base::kPrefixWarp && Base::kLookBackTilesPerLane == 1,
                "look-back warps resolving with the design's own WarpLookBack");
  using LookBack = ch09::WarpLookBack<kFirstLookNs, kRepollNs, 1, 0, true>;
};
// The sweep: step 12's scan with no barrier of the block before a tile goes out either. Each
// compute warp's items are one contiguous part of the tile (kItems x 32 elements, 2 KiB), so once
// its lanes have written their items back to the stage, the warp's lane 0 bulk-stores that part
// itself, and waits for that store to read it before the warp hands the stage back. The stage
// is free when all of its warps are done with it, which its `empty` barrier counts anyway. What
// is left of the block's barriers is the reduce's one: warp 0 needs every warp's total. Its
// storage alternates between two copies, so that the next reduce cannot overwrite totals warp 0
// is still reading (the barrier before each store used to order that).
template <typename Base>
struct WarpStores : Base {
  static_assert((Base::kWarpPrefixSlots > 0 || Base::kScanWhenLanded) && Base::kBulkStores && Base::kEveryThreadFrees && !Base::kEndWithoutStoreWaits,
                "step 12's scan or the scan when a tile lands (no barrier after the prefix), bulk stores, every compute thread frees its stages");
  static constexpr bool kWarpStores = true;
};
// The sweep: the tile scanned alone the moment it lands, not a lag later. Step 12's reduce already
// crosses the one barrier a tile scan needs (every warp's total); after it each warp scans the
// warp totals itself and rescans its items from what comes before it in the tile, and writes
// them back to the stage: chapter 05's BlockScan::scan_alone_one_barrier. A lag later, once the
// tile's prefix P is known, what is left is a map: every element x becomes op(P, x), which is the
// scan's element for any associative operator (x holds the tile's elements up to it, combined in
// order). The work after the prefix, all of it a block's end is made of once its tiles run out
// (README: step 12), is a read, one operation and a write per element. The landing tile is
// written back once more, and the reduce's storage alternates between two copies, so that no
// barrier is needed between reduces (experiments.md: the tile scanned when it lands).
template <typename Base>
struct ScanWhenLandedOf : Base {
  static_assert(Base::kLookBackWarp && !Base::kRunStatus && Base::kScanBuffers == 0 && !Base::kDrainLooksBack && Base::kEndLag == 0 &&
                    Base::kWarpPrefixSlots == 0,
                "look-back warps, a status word per tile, the lag in the stages, the reduce's storage alternating");
  static constexpr bool kScanWhenLanded = true;
};
// The sweep: a design scanning each tile when it lands whose block ends with the lag's tiles
// together, not one after another. The PM samples of launches back to back (experiments.md:
// launches back to back) say that a timed launch of step 12 loses its DRAM time at the end: the
// reads stop about 12 us before the launch ends, and the writes of the lag's tiles run at half
// the DRAM's speed for the first few us of that. Each block's end is five tiles mapped and stored
// one after another, each behind its own barrier and its own store's wait. Here, once the tiles
// run out, every thread combines each lagging tile's prefix into its items as the prefixes come,
// then one barrier, and the tiles' bulk stores are issued back to back. Slower, and the end is
// longer: no store leaves before the lag's last prefix, which comes about 4.5 us after the block's
// last aggregate; one tile at a time, each goes out as soon as its own prefix is there.
template <typename Base>
struct FusedEndOf : Base {
  static_assert(Base::kScanWhenLanded && !Base::kWarpStores && Base::kBulkStores && !Base::kEndWithoutStoreWaits,
                "a design scanning each tile when it lands, with bulk stores of whole tiles");
  static constexpr bool kFusedEnd = true;
};
// The sweep: a design whose compute warps, once the tiles have run out, no longer wait for each
// bulk store to read its stage before the next scan. Until then they must: the stage goes back
// to the producer. After the last tile no stage is loaded again, so the lag's stores are left
// reading side by side and waited for once, before the block ends.
template <typename Base>
struct EndWithoutStoreWaits : Base {
  static_assert(Base::kBulkStores && Base::kScanBuffers == 0, "bulk stores, the lag in the stages");
  static constexpr bool kEndWithoutStoreWaits = true;
};
// The sweep: a design whose stages are handed back to the producer by thread 0 alone, after the
// compute warps' named barrier, as in the chapter's first builds. Every design since has each
// compute thread arrive on `empty` once it is done with the stage: the same order, and the one
// racecheck can follow. Racecheck reports this one's hand-over as hazards wherever a block goes
// round its ring (README: Correctness, racecheck and the hand-over of a stage).
template <typename Base>
struct ThreadZeroFrees : Base {
  static constexpr bool kEveryThreadFrees = false;
};
// The compute threads that issue bulk stores, and so must wait for them to read their stages:
// thread 0, or (WarpStores) lane 0 of every compute warp.
template <typename Design>
__device__ __forceinline__ bool issues_bulk_stores() {
  return Design::kWarpStores ? (threadIdx.x & 31u) == 0 : threadIdx.x == 0;
}
// The arrivals that complete a stage's `empty` phase, and whether this compute thread is one of them.
template <typename Design>
inline constexpr unsigned kStageFreers = Design::kEveryThreadFrees ? kComputeThreads<Design> : 1;
template <typename Design>
__device__ __forceinline__ bool frees_stages() {
  return Design::kEveryThreadFrees || threadIdx.x == 0;
}
// The sweep: step 9 with 64 tiles per look (chapter 09's kTilesPerLane = 2: two loads per lane).
using SectorStatusWideLooks = PrefetchAhead<1, Design<2, true, true, 1, 1, 2, 0, 32>>;

// The tiles dealt round-robin when the last `tail_rounds` full rounds (and the part round) of a
// grid of `grid` blocks are drawn by ticket: whole rounds, the same number for every block.
__host__ __device__ constexpr unsigned long long dealt_tiles(unsigned long long tiles, unsigned long long grid, int tail_rounds) {
  return tiles / grid > static_cast<unsigned long long>(tail_rounds) ? (tiles / grid - tail_rounds) * grid : 0;
}

// The sweep and a diagnostic: a prefetching design with its tiles drawn by ticket, each drawn a
// tile ahead, right after the load before it is issued, and prefetched at once: the producer
// knows its next tile a load early, as when tiles are dealt round-robin, and slow SMs draw fewer.
template <typename Base>
struct TicketsAhead : Base {
  static_assert(Base::kPrefetchAhead == 1 && Base::kTilesPerLookBack == 1, "a ticket drawn one tile ahead, for that tile's prefetch");
  static constexpr bool kTicketedTiles = true;
};

// The sweep: a design whose look-back warps also publish the P of every tile they passed over in
// their nearest kWindows windows (chapter 09's WarpLookBack, kPublishWindows): a look-back that
// walked back 3 windows leaves up to 96 P's behind it, so the look-backs after it find a P
// sooner. It is much slower than step 8: they walk a little less, but the extra stores go to the
// lines every look-back polls, and every look takes longer (experiments.md: look-backs that
// publish).
template <int kWindows, typename Base>
struct PublishPassedTiles : Base {
  static_assert(Base::kLookBackWarp && Base::kLookBackTilesPerLane == 1, "look-back warps with windows of 32 tiles");
  using LookBack = ch09::WarpLookBack<0, Base::kPollDelayNs, 1, kWindows>;
};

// The sweep: a design whose first kFirstTiles tiles look back kSlabs x 32 tiles per look (chapter
// 09's kTilesPerLane), the others as the design does. At the start no tile has a P but tile 0,
// so the first round of tiles walks back up to G / 32 windows, one L2 round trip each: a
// candidate for the fixed cost of a launch. It is not that cost: a look of 256 status words
// costs more than the windows it saves, about 3 us per launch (experiments.md: look-backs that
// publish).
template <int kFirstTiles, int kSlabs, typename Base>
struct WideFirstLooks : Base {
  struct LookBack {
    template <typename T, typename Op, typename Status>
    __device__ static T resolve(const Status& status, std::size_t tile, T total, Op op, const sg::Watchdog& dog, bool sleep,
                                ch09::LookCounts* counts = nullptr) {
      if (tile < kFirstTiles) return ch09::WarpLookBack<0, Base::kPollDelayNs, kSlabs>::resolve(status, tile, total, op, dog, sleep, counts);
      return Base::LookBack::resolve(status, tile, total, op, dog, sleep, counts);
    }
  };
};

// StopAtOwnTile's look-back: for a tile whose block took tile `own_previous` before it, it reads
// the status words of the tiles in between in one look (lane i of slab k: tile - 1 - 32k - i,
// every one up to kSlabs x 32), waits while a needed one is still in X (polling again only
// those), and combines them in tile order from the nearest P among them; if there is none, it
// puts the previous tile's P in front, which `previous_p()` waits for in shared memory (the
// other look-back warp resolves it). It never walks past the block's own tile: its length is one
// look, plus the wait for that handover. Publishes the tile's P and returns its exclusive prefix,
// in every lane, as chapter 09's resolve does.
template <int kSlabs>
struct LookBackToOwnTile {
  // Whether one look reaches from `tile` back to the block's previous tile `own_previous`.
  __device__ static bool in_one_look(unsigned long long tile, unsigned long long own_previous) {
    return own_previous != kNoTile && tile - own_previous - 1 <= 32ull * kSlabs;
  }
  // What one look between the two tiles found: the tiles from the nearest P among them (if
  // `reached_p`) or from the first tile after own_previous, up to the tile before `tile`,
  // combined in tile order.
  template <typename T>
  struct Between {
    T window;
    bool reached_p;
  };
  template <typename T, typename Op, typename Status>
  __device__ static Between<T> look_between(const Status& status, unsigned long long tile, unsigned long long own_previous, Op op,
                                            const sg::Watchdog& dog, ch09::LookCounts* counts) {
    const int lane = ch03::lane_id();
    auto tile_at = [&](int k) { return static_cast<long long>(tile) - 1 - static_cast<long long>(k) * ch03::kWarpSize - lane; };
    unsigned between[kSlabs];  // the lanes of slab k that watch a tile after own_previous
#pragma unroll
    for (int k = 0; k < kSlabs; ++k) between[k] = __ballot_sync(ch03::kFullWarp, tile_at(k) > static_cast<long long>(own_previous));
    // every lane of a slab with tiles in between loads, so that all the loads are in flight at
    // once (a load under a lane's own condition waits for the one before it); a lane outside the
    // tiles in between loads the first of them, which its warp loads anyway, and ignores it. A
    // slab with no tile in between loads nothing (a condition the whole warp shares): each load a
    // lane issues makes the look longer
    ch09::Observed<T> seen[kSlabs];
#pragma unroll
    for (int k = 0; k < kSlabs; ++k)
      seen[k] = between[k] != 0 ? status.poll(static_cast<std::size_t>((between[k] >> lane) & 1u ? tile_at(k) : static_cast<long long>(own_previous) + 1))
                                : ch09::Observed<T>{ch09::kAggregate, Op::template identity<T>()};
    unsigned inclusive[kSlabs], invalid[kSlabs];
    int first_p = kSlabs;  // the slab of the nearest P (kSlabs: none between the two tiles)
    auto classify = [&] {
      first_p = kSlabs;
#pragma unroll
      for (int k = kSlabs - 1; k >= 0; --k) {
        const bool mine = (between[k] >> lane) & 1u;
        inclusive[k] = __ballot_sync(ch03::kFullWarp, mine && seen[k].status == ch09::kInclusive);
        invalid[k] = __ballot_sync(ch03::kFullWarp, mine && seen[k].status == ch09::kInvalid);
        if (inclusive[k] != 0) first_p = k;
      }
    };
    // the lanes of slab k that matter: every tile between the two before the nearest P's slab,
    // in it lanes 0 .. that P, none after it
    auto needed = [&](int k) { return k < first_p ? between[k] : k == first_p ? ch09::lanes_up_to_nearest_p(inclusive[k]) : 0u; };
    sg::WaitBudget budget(dog);
    classify();
    if (counts != nullptr) ++counts->windows;
    for (;;) {
      long long waiting = -1;  // the nearest needed tile still in X
#pragma unroll
      for (int k = kSlabs - 1; k >= 0; --k)
        if ((invalid[k] & needed(k)) != 0) waiting = tile_at(k) + lane - (__ffs(invalid[k] & needed(k)) - 1);
      if (waiting < 0) break;
      if (__shfl_sync(ch03::kFullWarp, lane == 0 && !budget.keep_waiting(tile, static_cast<unsigned long long>(waiting)), 0))
        return {Op::template identity<T>(), true};  // gave up: the launch is reported failed; finish quickly
#pragma unroll
      for (int k = 0; k < kSlabs; ++k)  // a tile seen in A keeps that A: only the ones in X are read again
        if ((needed(k) >> lane) & 1u && seen[k].status == ch09::kInvalid) seen[k] = status.poll(static_cast<std::size_t>(tile_at(k)));
      classify();
      if (counts != nullptr) ++counts->repolls;
    }
    T window = Op::template identity<T>();  // the needed tiles, from the earliest to the nearest
#pragma unroll
    for (int k = kSlabs - 1; k >= 0; --k) {
      const unsigned need = needed(k);
      if (need == 0) continue;  // (warp-uniform)
      const T mine = (need >> lane) & 1u ? seen[k].value : Op::template identity<T>();
      window = op(window, __shfl_sync(ch03::kFullWarp, ch09::scan_window_in_tile_order(mine, op), 0));
    }
    return {window, first_p < kSlabs};
  }

  template <typename T, typename Op, typename Status, typename PreviousP>
  __device__ static T resolve(const Status& status, unsigned long long tile, unsigned long long own_previous, T tile_total, Op op,
                              PreviousP previous_p, const sg::Watchdog& dog, ch09::LookCounts* counts) {
    const Between<T> look = look_between<T>(status, tile, own_previous, op, dog, counts);
    const T prefix = look.reached_p ? look.window : op(previous_p(), look.window);
    if (ch03::lane_id() == 0) status.publish(tile, ch09::kInclusive, op(prefix, tile_total));
    return prefix;
  }
};

// The look-back of the sweep's prefix warp. The grid's prefix warp (prefix_warp below) turns every
// tile's A into its P, in tile order, so a look-back never walks: it looks at the 32 tiles before
// its own until the nearest P among them is there, with every A after it, and combines them
// (chapter 09's window, which never slides). It publishes nothing: the prefix warp is the only
// writer of P.
template <unsigned kPollDelayNs = 0>  // between looks at a window without its P
struct NearestPrefixLookBack {
  template <typename T, typename Op, typename Status>
  __device__ static T resolve(const Status& status, std::size_t tile, T, Op op, const sg::Watchdog& dog, bool,
                              ch09::LookCounts* counts = nullptr) {
    const int lane = ch03::lane_id();
    const long long j = static_cast<long long>(tile) - 1 - lane;  // lane i: tile - 1 - i
    sg::WaitBudget budget(dog);
    if (counts != nullptr) ++counts->windows;
    for (;;) {
      ch09::Observed<T> seen = j >= 0 ? status.poll(static_cast<std::size_t>(j)) : ch09::Observed<T>{ch09::kInclusive, Op::template identity<T>()};
      const unsigned inclusive = __ballot_sync(ch03::kFullWarp, seen.status == ch09::kInclusive);
      const unsigned invalid = __ballot_sync(ch03::kFullWarp, seen.status == ch09::kInvalid);
      const unsigned needed = ch09::lanes_up_to_nearest_p(inclusive);  // (none: every lane)
      if (inclusive != 0 && (invalid & needed) == 0)
        return ch09::combine_window_in_tile_order((needed >> lane) & 1u ? seen.value : Op::template identity<T>(), op);
      if (counts != nullptr) ++counts->repolls;
      const unsigned long long waiting = inclusive != 0 ? tile - __ffs(invalid & needed) : tile - 32;
      if (__shfl_sync(ch03::kFullWarp, lane == 0 && !budget.keep_waiting(tile, waiting), 0)) return Op::template identity<T>();  // gave up: the launch is reported failed
      if constexpr (kPollDelayNs > 0) __nanosleep(kPollDelayNs);
    }
  }
};
// The sweep's look-back that walks on while it waits. Chapter 09's look-back waits at a window
// until every tile it needs there has left X, and only then reads the window before it: the
// trace at 2^26 says that a third (H200) to a half (H100) of step 13's look-backs find a tile in
// X in their first window, from an SM running behind, and look again there a round trip or two
// while the P they walk towards is windows further back. This one holds up to kDepth windows:
// each look re-reads the tiles still in X of the windows it holds (an A or a P read once stays
// valid) and, while none of them shows a P, reads the next window back in the same round trip.
// The windows are combined from the nearest, in tile order, as each one's needed tiles are all
// out. A look that reads a new window counts as a window (LookCounts), one that only re-reads
// as a look again. Measured at 2^26 on an H200 and an H100: it looks again almost never, and
// makes fewer looks, but each look waits longer under the stream's load, and a look-back takes
// as long as before; the scan is no faster (experiments.md: look-backs that walk on).
template <int kDepth, unsigned kPollDelayNs = 0>
struct WalkOnLookBack {
  static_assert(kDepth >= 2, "one window held is chapter 09's look-back");
  template <typename T, typename Op, typename Status>
  __device__ static T resolve(const Status& status, std::size_t tile, T tile_total, Op op, const sg::Watchdog& dog, bool sleep,
                              ch09::LookCounts* counts = nullptr) {
    const int lane = ch03::lane_id();
    long long nearest = static_cast<long long>(tile) - 1;  // lane 0's tile of the nearest window held
    auto tile_at = [&](int d) { return nearest - static_cast<long long>(d) * ch03::kWarpSize - lane; };
    ch09::Observed<T> seen[kDepth];
    unsigned inclusive[kDepth] = {}, invalid[kDepth] = {};
    int held = 0;        // windows held: 0 .. held - 1, from the nearest back
    int first_p = 0;     // the nearest held window with a P (held: none)
    T prefix = Op::template identity<T>();
    // the lanes of held window d that matter: all of them before the nearest P's window, in it
    // lanes 0 .. that P
    auto needed = [&](int d) { return d < first_p ? ~0u : ch09::lanes_up_to_nearest_p(inclusive[d]); };
    sg::WaitBudget budget(dog);
    for (;;) {
      // one look: the held windows' tiles still in X, and a new window if no held one has a P
      const bool open = held < kDepth && first_p == held;
#pragma unroll
      for (int d = 0; d < kDepth; ++d) {
        if (d < held) {
          if (seen[d].status == ch09::kInvalid && (needed(d) >> lane) & 1u)
            seen[d] = status.poll(static_cast<std::size_t>(tile_at(d)));
        } else if (d == held && open) {  // every lane loads (tile 0 stands in for a tile before it)
          const long long j = tile_at(d);
          seen[d] = status.poll(static_cast<std::size_t>(j >= 0 ? j : 0));
          if (j < 0) seen[d] = ch09::Observed<T>{ch09::kInclusive, Op::template identity<T>()};
        }
      }
      if (counts != nullptr) ++(open ? counts->windows : counts->repolls);
      held += open ? 1 : 0;
      first_p = held;
#pragma unroll
      for (int d = kDepth - 1; d >= 0; --d) {
        if (d >= held) continue;  // (warp-uniform)
        inclusive[d] = __ballot_sync(ch03::kFullWarp, seen[d].status == ch09::kInclusive);
        invalid[d] = __ballot_sync(ch03::kFullWarp, seen[d].status == ch09::kInvalid);
        if (inclusive[d] != 0) first_p = d;
      }
      if (first_p < held) held = first_p + 1;  // the windows beyond the nearest P are not needed
      // combine the nearest windows whose needed tiles are all out, and drop them
#pragma unroll
      for (int r = 0; r < kDepth; ++r) {
        if (held == 0) break;
        const unsigned need = needed(0);
        if ((invalid[0] & need) != 0) break;
        prefix = op(ch09::combine_window_in_tile_order((need >> lane) & 1u ? seen[0].value : Op::template identity<T>(), op), prefix);
        if (first_p == 0) {  // reached the P
          if (lane == 0) status.publish(tile, ch09::kInclusive, op(prefix, tile_total));
          return prefix;
        }
#pragma unroll
        for (int d = 0; d + 1 < kDepth; ++d) seen[d] = seen[d + 1], inclusive[d] = inclusive[d + 1], invalid[d] = invalid[d + 1];
        nearest -= ch03::kWarpSize;
        --held;
        --first_p;
      }
      if (held > 0) {  // the nearest window still waits for a tile
        const long long waiting = nearest - (__ffs(invalid[0] & needed(0)) - 1);
        if (__shfl_sync(ch03::kFullWarp, lane == 0 && !budget.keep_waiting(tile, static_cast<unsigned long long>(waiting)), 0)) {
          if (lane == 0) status.publish(tile, ch09::kInclusive, op(prefix, tile_total));
          return prefix;  // gave up: the launch is reported failed; finish quickly
        }
        if (kPollDelayNs > 0 && sleep) __nanosleep(kPollDelayNs);
      }
    }
  }
};
// The sweep: a design whose look-back warps walk on while they wait (WalkOnLookBack).
template <typename Base, int kDepth = 2>
struct WalkOnOf : Base {
  static_assert(Base::kLookBackWarp && Base::kOwnTileRounds == 0 && !Base::kPrefixWarp && Base::kLookBackTilesPerLane == 1,
                "look-back warps resolving with the design's own WarpLookBack");
  using LookBack = WalkOnLookBack<kDepth, Base::kPollDelayNs>;
};
// The sweep: a design (step 8) whose block 0 has one more warp, the grid's prefix warp, which
// walks all the tiles' status words in order, 32 x kSlabs at a time, and turns each A into a P
// with a running total kept in a register: the P front moves forward by whatever was reduced
// during a round trip, not by one window per round trip. The look-back warps only wait for a P
// among the 32 tiles before theirs. It is slower than step 8 on the H200. With slabs, one warp
// cannot keep up with the grid (experiments.md: one warp for the whole grid's prefixes); with a
// run of tiles per lane (kLaneRunsOf) it keeps up, and is no faster: a P exists only once every
// tile before it is reduced, whoever computes it (experiments.md: a prefix warp that keeps up).
template <typename Base, int kSlabs = 8, unsigned kPollDelayNs = 0, bool kLaneRunsOf = false>
struct PrefixWarpOf : Base {
  static_assert(Base::kLookBackWarp && !Base::kRunStatus && Base::kTilesPerLookBack == 1, "a look-back warp per tile waits for the prefix warp's P");
  static constexpr bool kPrefixWarp = true;
  static constexpr int kPrefixSlabs = kSlabs;  // slabs of 32 tiles per round; with lane runs, tiles per lane
  static constexpr bool kPrefixLaneRuns = kLaneRunsOf;  // lane i reads tiles next + K i ... : one warp scan per round
  static constexpr int kBlockThreads = Base::kBlockThreads + 32;  // the compute warps, the producer, the look-back warps, then the prefix warp
  using LookBack = NearestPrefixLookBack<kPollDelayNs>;
};
// The sweep: a design (step 8) whose lag waits in the L2 instead of the stages. In steps 3-8 a
// tile stays in its stage from its reduce until its scan, L tiles later: L + 1 of the six stages
// wait, and only one or two load. Here a stage goes back to the producer as soon as its tile is
// reduced, and the tile is read again from the L2 (it passed through the L2 a few microseconds
// earlier) once its scan comes near: one more warp, the re-reader, bulk-copies it into one of B
// scan buffers. S - B stages load, and the lag L costs no shared memory: it can be as long as the
// blocks' spread needs. The look-back warps take their tiles from a ring of Q slots (tile, A, P)
// instead of the stages. The price: n more bytes read from the L2, and a tile the L2 evicts before
// its reread comes from DRAM again (kHints: the first load asks the L2 to keep the tile, the
// reread and the store to let their lines go first). That price is what was measured: the
// rereads miss, DRAM reads every tile twice (ncu, H200 at 2^26: 526 MB read for a 268 MB
// array, 511 MB with the hints), and the scan runs at 1.5x copy on both GPUs (experiments.md: the
// lag in the L2).
template <int kBuffers, int kSlots, bool kHints, typename Base>
struct LagInL2 : Base {
  static_assert(Base::kLookBackWarp && Base::kBulkStores && Base::kEarlyRelease && Base::kStoresInFlight == 1 && Base::kTilesPerLookBack == 1 &&
                    !Base::kRunStatus && !Base::kPrefixWarp && !Base::kThreadLoads && !Base::kCopyOnly && !Base::kChunkedTiles,
                "step 7 or 8's pipeline, a look-back per tile");
  static_assert(kBuffers >= 1 && kBuffers <= kMaxScanBuffers && kSlots <= kMaxStages, "the shared state's arrays");
  static constexpr int kScanBuffers = kBuffers;
  static constexpr int kLagSlots = kSlots;
  static constexpr bool kL2Hints = kHints;
  static constexpr int kBlockThreads = Base::kBlockThreads + 32;  // the compute warps, the producer, the look-back warps, then the re-reader
};
template <typename D>  // the same design with its waits timed (main.cu --trace)
struct Traced : D {
  static constexpr bool kTrace = true;
};

// Step 7: chapter 09's status words and epochs, with tile t's word at t x stride. Packed, 16 words
// share a 128-byte line, and every block polls the newest few lines and publishes into them: a
// second look-back warp then re-polls about 3 times per tile and does not pay. A word per line
// ends the re-polls (README: the hot lines). The status buffer grows by the stride: 128 bytes
// per 16 KiB tile.
template <typename T, std::size_t kStride>
struct StridedStatus : ch09::EpochStatus<T> {
  __device__ void publish(std::size_t tile, unsigned int status, T value) const { ch09::EpochStatus<T>::publish(tile * kStride, status, value); }
  __device__ ch09::Observed<T> poll(std::size_t tile) const { return ch09::EpochStatus<T>::poll(tile * kStride); }
};
template <typename T, typename Design>
inline constexpr std::size_t kStatusStride = std::max<std::size_t>(1, Design::kStatusBytes / sizeof(ch08::PackedWord<T>));
// The sweep (GlobalPolls): the same words, polled with a load from the global state space. Chapter
// 08's load_relaxed reads an 8-byte word through cuda::atomic_ref, which the compiler emits as a
// generic load (LD.E.64.STRONG.GPU) that must first find which memory the address is in; this one
// is LDG.E.64.STRONG.GPU. (16-byte words are loaded from the global space already.)
template <typename T, std::size_t kStride>
struct GlobalPollStatus : StridedStatus<T, kStride> {
  __device__ ch09::Observed<T> poll(std::size_t tile) const {
    if constexpr (sizeof(ch08::PackedWord<T>) != 8) {
      return StridedStatus<T, kStride>::poll(tile);
    } else {
      unsigned long long word;
      asm volatile("ld.relaxed.gpu.global.b64 %0, [%1];" : "=l"(word) : "l"(this->words + tile * kStride) : "memory");
      return this->observe(word);
    }
  }
};
template <typename T, typename Design>
using StatusOf = std::conditional_t<Design::kGlobalPolls, GlobalPollStatus<T, kStatusStride<T, Design>>, StridedStatus<T, kStatusStride<T, Design>>>;

// What a traced launch measures (main.cu --trace), summed over the blocks: how long the
// look-back takes and how many round trips it makes, and how long the compute warps wait for
// tiles to land and for prefixes to be resolved.
struct Trace {
  unsigned long long lookbacks, lookback_windows, lookback_repolls, lookback_ns;  // lookbacks: tiles that looked back
  unsigned long long compute_ns;       // the compute warps' time from their first wait to their last store
  unsigned long long load_wait_ns;     // ... of it waiting for a tile to land
  unsigned long long prefix_wait_ns;   // ... of it waiting for a tile's prefix
  unsigned long long waited_loads, waited_load_latency_ns;  // loads the compute warps waited for: issue to landing
  unsigned long long prefix_rounds, prefix_tiles;  // (the sweep's prefix warp) its looks, and the tiles it turned from A into P
  unsigned long long reread_wait_ns;  // (the sweep's lag in the L2) the compute warps' time waiting for a tile's reread
  unsigned long long own_tile_stops, own_tile_wait_ns;  // (StopAtOwnTile) look-backs that stopped at the block's previous tile, and their waits for its P
  // the timeline of the last traced launch, per block (global timer, ns): entry, the first tile
  // landed, the last aggregate published, the last store drained
  static constexpr int kTimelineBlocks = 1024;
  unsigned long long started_ns[kTimelineBlocks], first_landed_ns[kTimelineBlocks], last_reduced_ns[kTimelineBlocks], ended_ns[kTimelineBlocks];
  // ... and of its end, after the last aggregate: when the last prefix came, and how long the
  // compute warps waited for the lag's prefixes in between (the rest: scanning and storing it)
  unsigned long long last_prefix_ns[kTimelineBlocks], end_prefix_wait_ns[kTimelineBlocks], end_store_ns[kTimelineBlocks];
  // ... and of its start: its first store issued, its first S tiles scanned (a ring's worth), and
  // how long the compute warps waited for prefixes and for loads until then
  unsigned long long first_store_ns[kTimelineBlocks], lap_scanned_ns[kTimelineBlocks], start_prefix_wait_ns[kTimelineBlocks],
      start_load_wait_ns[kTimelineBlocks];
  // ... and when the first scan could begin: the lag's last tile landed (tile L of the block, L + 1
  // reduces), and the first scan's prefix came
  unsigned long long lag_landed_ns[kTimelineBlocks], first_prefix_ns[kTimelineBlocks];
  // and, per block of the last launch, the SM it ran on and how many tiles it took (tiles by
  // ticket: how many each SM drew)
  unsigned sm_of_block[kTimelineBlocks], tiles_of_block[kTimelineBlocks];
  // The aggregates' timing: per tile of the last traced launch (the first kTracedTiles tiles:
  // 2^26 int32 in 16 or 32 KiB tiles), when its load was issued, when the compute warps had it
  // (when it landed, if they waited for it: `waited`), how long they had waited for prefixes
  // since they last asked for a tile (the scans between two reduces), when its aggregate was
  // published, and when its look-back began and its prefix was resolved. A look-back waits for
  // the aggregates of the tiles before it: these say whether an aggregate came late because its
  // tile landed late or because the compute warps of its SM came to it late, and which of them a
  // look-back found missing when it began.
  static constexpr int kTracedTiles = 16384;
  unsigned long long tile_issued_ns[kTracedTiles], tile_had_ns[kTracedTiles],
      tile_scan_waits_ns[kTracedTiles], tile_reduced_ns[kTracedTiles], tile_looked_ns[kTracedTiles], tile_resolved_ns[kTracedTiles];
  bool tile_waited[kTracedTiles];
};

// Where the array sits in the virtual, aligned tiles (computed by the launcher).
struct Layout {
  std::size_t n;
  std::size_t shift;        // elements between the 16-byte boundary at or below `in`, and `in`
  unsigned long long tiles;
  bool same_alignment;      // out has in's offset from a 16-byte boundary: bulk stores possible
};

// The part of tile t that holds array elements [lo, hi), and its 16-byte aligned middle
// [core_lo, core_hi), all in virtual positions.
struct TileSpan {
  std::size_t first, lo, hi, core_lo, core_hi;
};
template <typename T, typename Design>
__device__ __forceinline__ TileSpan tile_span(const Layout& layout, std::size_t tile) {
  TileSpan span;
  span.first = tile * kTileItems<T, Design>;
  span.lo = span.first > layout.shift ? span.first : layout.shift;
  const std::size_t end = layout.shift + layout.n;
  span.hi = span.first + kTileItems<T, Design> < end ? span.first + kTileItems<T, Design> : end;
  span.core_lo = (span.lo + kVector<T> - 1) / kVector<T> * kVector<T>;
  span.core_hi = span.hi / kVector<T> * kVector<T>;
  if (span.core_hi < span.core_lo) span.core_hi = span.core_lo;
  return span;
}

// Whether tile is in the last `rounds` rounds of G tiles of the launch (the sweep's designs that
// change something there).
__device__ __forceinline__ bool in_last_rounds(unsigned long long tile, int rounds, const Layout& layout) {
  return tile + static_cast<unsigned long long>(rounds) * gridDim.x >= layout.tiles;
}

// ---- shared memory: the stages, read without bank conflicts -----------------------------
//
// A stage holds a tile exactly as it lies in global memory: the bulk copy cannot pad it the
// way chapter 05's transposed load pads its staging area. Thread t's items are the V = 4
// consecutive 16-byte vectors [4t, 4t + 4). Read in that order, the 8 threads that share a
// shared-memory cycle (a quarter warp, for 16-byte accesses) start 64 bytes apart, and four of
// them hit the same banks. So thread t reads its vectors in the order j XOR s(t), where the
// swizzle s(t) gives those 8 threads 8 different 16-byte bank groups in every cycle, then puts
// the vectors back in order in registers (log2 V rounds of conditional swaps).
template <int kVectors>
__device__ __forceinline__ int swizzle_of_thread() {
  constexpr int kThreadsPerGroup = kVectors >= 8 ? 1 : 8 / kVectors;  // threads whose vectors share a row of banks
  constexpr int kSpread = kVectors < 8 ? kVectors : 8;
  return (static_cast<int>(threadIdx.x) / kThreadsPerGroup) % kSpread;
}

// raw[j] <-> raw[j ^ swizzle]: the permutation is its own inverse, so the same rounds undo it.
// (Vectors of a stage, or one value per vector: ItemsAsLaid below.)
template <typename U, int kCount>
__device__ __forceinline__ void xor_permute(U (&raw)[kCount], int swizzle) {
#pragma unroll
  for (int bit = 1; bit < kCount; bit *= 2) {
    const bool flip = (swizzle & bit) != 0;
#pragma unroll
    for (int j = 0; j < kCount; ++j) {
      if ((j & bit) != 0) continue;
      const U a = raw[j], b = raw[j | bit];
      raw[j] = flip ? b : a;
      raw[j | bit] = flip ? a : b;
    }
  }
}

// kInOrder = false leaves the vectors in the order read (register vector j holds the stage's
// vector j ^ s(t)) and writes them back from that order: step 13's ItemsAsLaid, below.
template <bool kInOrder = true, typename T, int kItemsPerThread>
__device__ __forceinline__ void read_stage(const T* stage, T (&items)[kItemsPerThread]) {
  constexpr int kVectors = kItemsPerThread * sizeof(T) / 16;
  static_assert((kVectors & (kVectors - 1)) == 0, "a power-of-two number of vectors per thread");
  const uint4* mine = reinterpret_cast<const uint4*>(stage) + threadIdx.x * kVectors;
  const int swizzle = swizzle_of_thread<kVectors>();
  uint4 raw[kVectors];
#pragma unroll
  for (int j = 0; j < kVectors; ++j) raw[j] = mine[j ^ swizzle];
  if constexpr (kInOrder) xor_permute(raw, swizzle);
  std::memcpy(items, raw, sizeof(raw));
}

template <bool kInOrder = true, typename T, int kItemsPerThread>
__device__ __forceinline__ void write_stage(T* stage, const T (&items)[kItemsPerThread]) {
  constexpr int kVectors = kItemsPerThread * sizeof(T) / 16;
  uint4* mine = reinterpret_cast<uint4*>(stage) + threadIdx.x * kVectors;
  const int swizzle = swizzle_of_thread<kVectors>();
  uint4 raw[kVectors];
  std::memcpy(raw, items, sizeof(raw));
  if constexpr (kInOrder) xor_permute(raw, swizzle);
#pragma unroll
  for (int j = 0; j < kVectors; ++j) mine[j ^ swizzle] = raw[j];
}

// Step 13: a thread's items kept in the order it read them. read_stage puts the vectors back in
// order with log2 V rounds of selects over every register of them: for V = 4 vectors of int32,
// 32 selects a pass, and step 12 makes three passes a tile (the reduce's read, the scan's read
// and write). Nsight Compute's source view of step 12 on an H200 counts 124 selects of the 411
// instructions a compute warp issues per tile. A scan needs its items in order only across the
// vectors, not inside each: so here register vector j holds the stage's vector j ^ s(t) as read,
// each vector is reduced in order, and only the V vector totals are put in order (and the V
// prefixes back in the order read): 8 selects a pass for int32. The items go back to where they
// were read from, with no permutation at all.
template <typename T, int kItemsPerThread>
struct ItemsAsLaid {
  static constexpr int kVectors = kItemsPerThread * static_cast<int>(sizeof(T)) / 16;
  static constexpr int kPerVector = kItemsPerThread / kVectors;
  static_assert((kVectors & (kVectors - 1)) == 0, "a power-of-two number of vectors per thread");

  __device__ static void read(const T* stage, T (&items)[kItemsPerThread]) { read_stage<false>(stage, items); }
  __device__ static void write(T* stage, const T (&items)[kItemsPerThread]) { write_stage<false>(stage, items); }
  // Chapter 05's BlockScan::reduce and scan_after_reduce (Scan), for items kept as read.
  template <typename Scan, typename Op>
  __device__ static T reduce(const T (&items)[kItemsPerThread], Op op, typename Scan::TempStorage& temp, T* warp_before) {
    T totals[kVectors];
    vector_totals(items, op, totals);
    return Scan::reduce_thread_totals(thread_reduce(totals, op), op, temp, warp_before);
  }
  template <bool kExclusive, typename Scan, typename Op>
  __device__ static void scan_after_reduce(T (&items)[kItemsPerThread], Op op, T before_warp) {
    T totals[kVectors];
    vector_totals(items, op, totals);
    rescan<kExclusive>(items, totals, op, Scan::before_thread_after_reduce(thread_reduce(totals, op), op, before_warp));
  }
  // Chapter 05's BlockScan::scan_alone_one_barrier, for items kept as read, in two halves, so that
  // the tile's total can be published between them (LastRoundsScannedWhenLandedOf): the vector
  // totals, what comes before this thread inside the tile, and the tile's total (every thread) ...
  template <typename Scan, typename Op>
  __device__ static T before_thread_alone(const T (&items)[kItemsPerThread], Op op, typename Scan::TempStorage& temp, T (&totals)[kVectors],
                                          T& tile_total) {
    vector_totals(items, op, totals);
    return Scan::before_thread_alone_one_barrier(thread_reduce(totals, op), op, temp, tile_total);
  }
  // ... and the items rescanned from those
  template <bool kExclusive, typename Op>
  __device__ static void rescan_alone(T (&items)[kItemsPerThread], const T (&totals)[kVectors], Op op, T before_thread) {
    rescan<kExclusive>(items, totals, op, before_thread);
  }

 private:
  // Chapter 05's phases 1 and 3 for one thread's items, here applied to one vector's items (or
  // to the vector totals).
  using OfVector = ch05::BlockScan<T, ch03::kWarpSize, kPerVector>;
  using OfTotals = ch05::BlockScan<T, ch03::kWarpSize, kVectors>;

  // totals[v]: the thread's vector v (in the tile's order) reduced in order
  template <typename Op>
  __device__ static void vector_totals(const T (&items)[kItemsPerThread], Op op, T (&totals)[kVectors]) {
#pragma unroll
    for (int j = 0; j < kVectors; ++j) {
      T vector[kPerVector];
      copy_vector(vector, items, j);
      totals[j] = OfVector::thread_reduce(vector, op);
    }
    xor_permute(totals, swizzle_of_thread<kVectors>());  // register j held vector j ^ s
  }
  template <typename Op>
  __device__ static T thread_reduce(const T (&totals)[kVectors], Op op) {
    return OfTotals::thread_reduce(totals, op);
  }
  // chapter 05's rescan, a vector at a time from each vector's own prefix
  template <bool kExclusive, typename Op>
  __device__ static void rescan(T (&items)[kItemsPerThread], const T (&totals)[kVectors], Op op, T running) {
    T before[kVectors];  // before[v]: everything before the thread's vector v
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
  // register vector j's items as an array of their own (registers: every index is known)
  __device__ static void copy_vector(T (&vector)[kPerVector], const T (&items)[kItemsPerThread], int j) {
#pragma unroll
    for (int i = 0; i < kPerVector; ++i) vector[i] = items[j * kPerVector + i];
  }
};

// ---- the block's shared state ----------------------------------------------------------------
// The compute warps synchronise among themselves only (named barrier 1): the producer and the
// look-back warp never wait for them, nor they for those, except through the mbarriers.
template <int kThreads>
using ComputeBarrierOf = NamedBarrier<1, kThreads>;
template <typename Design>
using ComputeBarrier = ComputeBarrierOf<kComputeThreads<Design>>;

template <typename T, int kComputeThreadsOfBlock, int kWarpPrefixSlots = 0>
struct Control {
  using Scan = ch05::BlockScan<T, kComputeThreadsOfBlock, kItems<T>, ComputeBarrierOf<kComputeThreadsOfBlock>>;
  Mbarrier full[kMaxStages];      // the tile has landed          (the producer's lanes + the bytes)
  Mbarrier empty[kMaxStages];     // the stage may be refilled    (every compute thread)
  Mbarrier reduced[kMaxStages];   // the tile's aggregate is known (one compute thread)
  Mbarrier resolved[kMaxStages];  // the tile's prefix is known    (the look-back warp)
  unsigned long long tile_of[kMaxStages];
  unsigned long long issued_ns[kMaxStages];  // when the producer issued the stage's load (traced launches)
  T aggregate[kMaxStages];
  T prefix[kMaxStages];
  T own_prefix[kMaxStages];     // (the sweep's DrainLooksBack) the prefix the compute warps resolved themselves at the end
  bool looked_back[kMaxStages];  // ... for this stage's tile, instead of waiting for `resolved`
  unsigned long long own_previous_tile[kMaxStages];  // (StopAtOwnTile) where the tile's look-back stops (kNoTile: it walks)
  bool own_window_reached_p[kMaxStages];  // (DrainLooksToOwnTiles) own_prefix is a whole prefix, not the tiles after the block's previous one
  unsigned long long last_scanned_tile;  // ... the block's last tile scanned before the end (kNoTile: none)
  T last_scanned_p;                     // ... and its P
  Mbarrier lag_resolved;                // ... the compute warps have resolved the lag's prefixes themselves (one phase per launch)
  typename Scan::TempStorage reduce_storage[2], scan_storage;  // (WarpStores) the reduces alternate between two
  // (WarpPrefixesFromTheReduce) per stage, what comes before each compute warp inside its tile
  T warp_before[kWarpPrefixSlots > 0 ? kWarpPrefixSlots : 1][kWarpPrefixSlots > 0 ? Scan::kWarps : 1];
};
template <typename T, typename Design>
using ControlOf = Control<T, kComputeThreads<Design>, Design::kWarpPrefixSlots>;

// The lag held in the L2 (LagInL2): the slots' tiles (their A and P are Control's aggregate and
// prefix, their barriers reduced and resolved), and the scan buffers' barriers.
struct LagRing {
  unsigned long long tile_of_slot[kMaxStages];
  Mbarrier reread_full[kMaxScanBuffers];   // the tile has landed again  (the re-reader's lanes + the bytes)
  Mbarrier reread_empty[kMaxScanBuffers];  // the buffer may be refilled (every compute thread, once its store has read it)
};

// A stage index and the parity of its current round, advanced together around the ring.
struct RingPosition {
  int stage = 0;
  unsigned parity = 0;
  int round = 0;  // how many times the ring has been gone round (the producer's first lap waits for nothing)
  __device__ void advance(int stages) {
    if (++stage == stages) {
      stage = 0;
      parity ^= 1u;
      ++round;
    }
  }
};

#if SG_CH12_DEVICE_CODE

// ---- the producer warp ------------------------------------------------------------------------
// The positions of a tile outside its aligned middle, which the bulk copy does not bring: a few
// elements at the array's two ends, the identity outside the array (first and last tile only).
// The warp's lanes, with ordinary loads and stores:
//   the partial vectors  fewer than 16 bytes at each end: lanes [0, V) the head's, [V, 2V) the
//                        tail's. Their loads are issued first and stored last, so that no lane
//                        waits for a round trip to DRAM before the fill below.
//   past the array's end the rest of the last tile, 16 bytes of the identity a store: up to a
//                        whole 32 KiB tile in 64 stores a lane (for int32, not 256 of one element).
template <typename T, typename Op, typename Design>
__device__ __forceinline__ void fill_tile_ends(const T* aligned_in, TileSpan span, T* stage, int lane) {
  constexpr int V = static_cast<int>(kVector<T>);
  const std::size_t end = span.first + kTileItems<T, Design>;
  const bool head = lane < V;
  const std::size_t p = head ? span.first + lane : span.core_hi + (lane - V);
  const bool mine = lane < 2 * V && (head ? p < span.core_lo : p < end);
  T value = Op::template identity<T>();
  if (mine && p >= span.lo && p < span.hi) value = aligned_in[p];
  if (span.core_hi < end) {
    union {
      T items[V];
      uint4 vector;
    } identities;
#pragma unroll
    for (int i = 0; i < V; ++i) identities.items[i] = Op::template identity<T>();
    for (std::size_t q = span.core_hi + V + static_cast<std::size_t>(lane) * V; q < end; q += 32 * V)
      *reinterpret_cast<uint4*>(stage + (q - span.first)) = identities.vector;
  }
  if (mine) stage[p - span.first] = value;
}

template <typename T, typename Op, typename Design>
__device__ void produce(const T* __restrict__ in, const Layout& layout, T* stages, int stage_count, ControlOf<T, Design>& control,
                        const PersistentTicket& ticket, const sg::Watchdog& dog) {
  const int lane = ch03::lane_id();
  const T* aligned_in = in - layout.shift;  // virtual position 0: 16-byte aligned
  // block b's tiles: the runs of K tiles b, b + G, b + 2G, ... (K = 1 but in the sweep's tile
  // runs); a diagnostic may deal a contiguous run, and the sweep and diagnostics may draw
  // tickets, once a stage is free
  constexpr int K = Design::kTilesPerLookBack;
  auto next_tile = [](unsigned long long tile) { return (tile + 1) % K != 0 ? tile + 1 : tile + 1 + (gridDim.x - 1ull) * K; };
  unsigned long long tile = static_cast<unsigned long long>(blockIdx.x) * K;
  unsigned long long chunk_end = 0;
  if constexpr (Design::kChunkedTiles) {
    const unsigned long long per_block = (layout.tiles + gridDim.x - 1) / gridDim.x;
    tile = blockIdx.x * per_block;
    chunk_end = tile + per_block < layout.tiles ? tile + per_block : layout.tiles;
  }
  // (tickets drawn a tile ahead, or a tail of tickets) the tile this producer loads next
  constexpr bool kTicketAhead = Design::kTicketedTiles && Design::kPrefetchAhead > 0;
  constexpr bool kTail = Design::kTicketTailRounds > 0;
  const unsigned long long dealt = kTail ? dealt_tiles(layout.tiles, gridDim.x, Design::kTicketTailRounds) : 0;
  unsigned long long drawn_ahead = 0;
  if constexpr (kTicketAhead) drawn_ahead = __shfl_sync(ch03::kFullWarp, lane == 0 ? ticket.draw() : 0ull, 0);
  if constexpr (kTail) drawn_ahead = dealt > 0 ? blockIdx.x : __shfl_sync(ch03::kFullWarp, lane == 0 ? ticket.draw() : 0ull, 0);
  for (RingPosition at;; at.advance(stage_count), tile = Design::kChunkedTiles ? tile + 1 : next_tile(tile)) {
    if (Design::kChunkedTiles && tile >= chunk_end) tile = layout.tiles;
    const int s = at.stage;
    if (at.round > 0) wait_phase(&control.empty[s], at.parity ^ 1u, dog, tile);  // the previous round's store has read it
    if constexpr (Design::kSecondLapPrefetch > 0)  // (SecondLapPrefetchOf) the first lap issued: once its tile W is in, D more tiles
      if (at.round == 1 && s == 0) {
        wait_phase(&control.full[min(Design::kSecondLapPrefetchAfter, stage_count - 1)], 0u, dog, tile);
        const unsigned long long next = kTail ? drawn_ahead : tile;  // this load's tile, already asked for
        const unsigned long long far = next + (lane + 1ull) * gridDim.x;
        if (lane < Design::kSecondLapPrefetch && next < (kTail ? dealt : layout.tiles) && far < (kTail ? dealt : layout.tiles)) {
          const TileSpan later = tile_span<T, Design>(layout, far);
          const unsigned later_bytes = static_cast<unsigned>((later.core_hi - later.core_lo) * sizeof(T));
          if (later_bytes > 0) ch09::prefetch_l2(aligned_in + later.core_lo, later_bytes);
        }
      }
    if constexpr (Design::kFirstLoadsAlone > 0)  // (FirstLoadsAloneOf) the rest of the first lap once the X-th tile is in
      if (at.round == 0 && s == Design::kFirstLoadsAlone) wait_phase(&control.full[s - 1], 0u, dog, tile);
    if constexpr (kTicketAhead || kTail) tile = drawn_ahead;
    else if constexpr (Design::kTicketedTiles)  // a ticket per run of K tiles (K = 1: per tile)
      if (tile % K == 0) tile = K * __shfl_sync(ch03::kFullWarp, lane == 0 ? ticket.draw() : 0ull, 0);
    if (tile >= layout.tiles) {
      // the array ended inside this block's run: draw the one ticket past the end that every
      // block draws, or the counter would not reset for the next launch
      if (Design::kTicketedTiles && tile % K != 0 && lane == 0) ticket.draw();
      if (lane == 0) control.tile_of[s] = kNoTile;
      for (unsigned a = 0; a < Design::kFullArrivals / 32; ++a) arrive(&control.full[s]);  // wakes the compute warps with "no more tiles"
      return;
    }
    T* stage = stages + static_cast<std::size_t>(s) * kTileItems<T, Design>;
    const TileSpan span = tile_span<T, Design>(layout, tile);
    // The tile's aligned middle is asked for first and its ends filled after, while the copy
    // flies: an end is an ordinary load, a round trip to DRAM that held back the whole tile's copy
    // when it came first. (Only the first and last tile have ends: bytes before and after the
    // array's 16-byte boundaries, and the rest of a partial last tile; README: unaligned arrays.)
    if constexpr (Design::kThreadLoads) {
      if (lane == 0) {
        control.tile_of[s] = tile;
        if constexpr (Design::kTrace) control.issued_ns[s] = sg::global_time_ns();
      }
      for (std::size_t p = span.core_lo + lane * kVector<T>; p < span.core_hi; p += 32 * kVector<T>)
        copy_16_bytes_async(stage + (p - span.first), aligned_in + p);
      fill_tile_ends<T, Op, Design>(aligned_in, span, stage, lane);
      arrive(&control.full[s]);  // my ordinary stores above
      arrive_when_copies_land(&control.full[s]);
      continue;
    }
    if (lane == 0) {
      control.tile_of[s] = tile;
      if constexpr (Design::kTrace) control.issued_ns[s] = sg::global_time_ns();
      const unsigned bytes = static_cast<unsigned>((span.core_hi - span.core_lo) * sizeof(T));
      expect_bytes(&control.full[s], bytes);  // before the copy can deliver any of them
      if constexpr (Design::kL2Hints) {  // (the lag in the L2) keep the tile for its reread
        if (bytes > 0) bulk_load(stage + (span.core_lo - span.first), aligned_in + span.core_lo, bytes, &control.full[s], l2_evict_last_policy());
      } else {
        if (bytes > 0) bulk_load(stage + (span.core_lo - span.first), aligned_in + span.core_lo, bytes, &control.full[s]);
      }
      if constexpr (Design::kPrefetchAhead > 0) {
        unsigned long long ahead = tile;
        if constexpr (kTicketAhead) ahead = drawn_ahead = ticket.draw();
        else if constexpr (kTail) ahead = drawn_ahead = tile + gridDim.x < dealt ? tile + gridDim.x : dealt + ticket.draw();
        else
          for (int i = 0; i < Design::kPrefetchAhead; ++i) ahead = next_tile(ahead);
        if (ahead < layout.tiles && (!Design::kPrefetchAfterFirstLap || at.round > 0)) {
          const TileSpan later = tile_span<T, Design>(layout, ahead);
          unsigned later_bytes = static_cast<unsigned>((later.core_hi - later.core_lo) * sizeof(T));
          if (later_bytes > Design::kPrefetchBytes) later_bytes = Design::kPrefetchBytes;
          if (later_bytes > 0) ch09::prefetch_l2(aligned_in + later.core_lo, later_bytes);
        }
        if constexpr (Design::kFirstLapPrefetch > 0) {
          // (FirstLapPrefetchOf) the first lap also asks for the second lap's tiles, dealt ones only
          const unsigned long long far = tile + static_cast<unsigned long long>(stage_count + 1) * gridDim.x;
          if (at.round == 0 && s < Design::kFirstLapPrefetch && far < (kTail ? dealt : layout.tiles)) {
            const TileSpan later = tile_span<T, Design>(layout, far);
            const unsigned later_bytes = static_cast<unsigned>((later.core_hi - later.core_lo) * sizeof(T));
            if (later_bytes > 0) ch09::prefetch_l2(aligned_in + later.core_lo, later_bytes);
          }
        }
      }
    }
    fill_tile_ends<T, Op, Design>(aligned_in, span, stage, lane);
    fence_shared_for_bulk_copies();  // these stores before a later round's bulk copy into the same stage
    arrive(&control.full[s]);        // every lane, once its part of the ends is stored
    if constexpr (kTicketAhead || kTail) drawn_ahead = __shfl_sync(ch03::kFullWarp, drawn_ahead, 0);
  }
}

// Traced launches: a look-back warp adds its look-backs, looks and busy time to the launch's sums.
__device__ __forceinline__ void add_lookback_trace(Trace* trace, unsigned long long lookbacks, const ch09::LookCounts& counts,
                                                   unsigned long long busy_ns) {
  if (ch03::lane_id() != 0) return;
  atomicAdd(&trace->lookbacks, lookbacks);
  atomicAdd(&trace->lookback_windows, static_cast<unsigned long long>(counts.windows));
  atomicAdd(&trace->lookback_repolls, static_cast<unsigned long long>(counts.repolls));
  atomicAdd(&trace->lookback_ns, busy_ns);
}

// Tells the look-back warps that wait at the `count` ring positions after `last` that the tiles
// have run out (the compute warps, thread 0). tile_of: the stages' tiles (the slots' with the lag
// in the L2).
template <typename ControlT>
__device__ __forceinline__ void stop_look_back_warps(ControlT& control, unsigned long long* tile_of, RingPosition last, int count,
                                                     int stage_count) {
  for (int i = 0; i < count; ++i) {
    last.advance(stage_count);
    tile_of[last.stage] = kNoTile;
    arrive(&control.reduced[last.stage]);
  }
}

// ---- the look-back warp (step 3 on) -------------------------------------------------------------
// In the sweep's tile runs, a block's tiles come in runs of K consecutive tiles, and only a run's
// first tile looks back: each of the others follows the tile before it, already resolved by this warp,
// and publishes its P as soon as its own aggregate is known, without a round trip.
// With W look-back warps (step 7: two), warp w takes ring positions w, w + W, w + 2W, ...
// The positions are the stages' (tile_of: Control's), or with the lag in the L2 the slots'.
template <typename T, typename Op, typename Design>
__device__ void look_back_warp(const StatusOf<T, Design>& status, int stage_count, int which, ControlOf<T, Design>& control,
                               const unsigned long long* tile_of, Trace* trace, const sg::Watchdog& dog) {
  constexpr int K = Design::kTilesPerLookBack;
  static_assert(Design::kLookBackWarps <= 1 || K == 1, "a run of tiles with a status word per tile is resolved by one warp");
  const Op op{};
  unsigned long long lookbacks = 0, busy_ns = 0, own_tile_stops = 0, own_tile_wait_ns = 0;
  ch09::LookCounts counts;
  T prefix = Op::template identity<T>();  // of the tile being resolved
  RingPosition at;
  for (int w = 0; w < which; ++w) at.advance(stage_count);
  for (;; [&] { for (int w = 0; w < Design::kLookBackWarps; ++w) at.advance(stage_count); }()) {
    const int s = at.stage;
    wait_phase(&control.reduced[s], at.parity, dog, 0);
    const unsigned long long tile = tile_of[s];
    if (tile == kNoTile) break;
    // the aggregate is published already (by the compute warps, the moment it existed)
    const T aggregate = control.aggregate[s];  // read before the stage is handed on
    if constexpr (Design::kDrainToOwnTiles) {
      // (DrainLooksToOwnTiles) the compute warps have resolved and published the lag's prefixes
      // at the end of the block: only the barrier's phase is left to complete
      if (__shfl_sync(ch03::kFullWarp, ch03::lane_id() == 0 && phase_complete(&control.lag_resolved, 0), 0)) {
        if (ch03::lane_id() == 0) arrive(&control.resolved[s]);
        continue;
      }
    }
    if (tile % K == 0) {
      const unsigned long long start = Design::kTrace ? sg::global_time_ns() : 0;
      ch09::LookCounts* const counted = Design::kTrace ? &counts : nullptr;
      if (tile == 0) {
        prefix = Op::template identity<T>();
      } else if constexpr (Design::kOwnTileRounds > 0) {
        const unsigned long long own_previous = control.own_previous_tile[s];
        // the block's previous tile is at the ring position before this one: its P, once the
        // other look-back warp has resolved it (its stage cannot have moved on: its next tile is
        // reduced only after this tile's scan, since S >= L + 2)
        const int before = at.stage == 0 ? stage_count - 1 : at.stage - 1;
        const unsigned before_parity = at.stage == 0 ? at.parity ^ 1u : at.parity;
        auto previous_p = [&] {  // (lane 0 reads, the warp gets it: this warp writes those words again later)
          const unsigned long long waited_from = Design::kTrace ? sg::global_time_ns() : 0;
          T p = Op::template identity<T>();
          if (ch03::lane_id() == 0) {
            wait_phase(&control.resolved[before], before_parity, dog, tile);
            p = op(control.prefix[before], control.aggregate[before]);
          }
          if constexpr (Design::kTrace) own_tile_wait_ns += sg::global_time_ns() - waited_from, ++own_tile_stops;
          return __shfl_sync(ch03::kFullWarp, p, 0);
        };
        prefix = own_previous != kNoTile
                     ? LookBackToOwnTile<Design::kOwnTileSlabs>::resolve(status, tile, own_previous, aggregate, op, previous_p, dog, counted)
                     : Design::LookBack::resolve(status, tile, aggregate, op, dog, true, counted);
      } else {
        prefix = Design::LookBack::resolve(status, tile, aggregate, op, dog, true, counted);
      }
      if constexpr (Design::kTrace) {
        const unsigned long long end = sg::global_time_ns();
        busy_ns += end - start, lookbacks += tile != 0;
        if (ch03::lane_id() == 0 && tile < Trace::kTracedTiles) trace->tile_looked_ns[tile] = start, trace->tile_resolved_ns[tile] = end;
      }
    } else if (ch03::lane_id() == 0) {
      status.publish(tile, ch09::kInclusive, op(prefix, aggregate));  // the tile before it is this block's
    }
    if (ch03::lane_id() == 0) {
      control.prefix[s] = prefix;
      arrive(&control.resolved[s]);
    }
    prefix = op(prefix, aggregate);  // the next tile's, if it is in the same run
  }
  if (Design::kTrace) add_lookback_trace(trace, lookbacks, counts, busy_ns);
  if (Design::kTrace && Design::kOwnTileRounds > 0 && ch03::lane_id() == 0) {
    atomicAdd(&trace->own_tile_stops, own_tile_stops);
    atomicAdd(&trace->own_tile_wait_ns, own_tile_wait_ns);
  }
}

// The look-back warps of a cluster (ClusterPairsOf), for the pair of tiles that a stage and the
// same stage of the other rank hold. Values cross the cluster by st.async, which counts its bytes
// on the receiver's barrier as a bulk copy does: no fence at the scope of the cluster on either
// side. Per stage, in order:
//   rank 0's compute warps   reduce, write their aggregate into rank 1
//   rank 1's look-back warp 0  once its own tile is reduced and rank 0's aggregate is in:
//                            publishes the pair's aggregate, writes its own into rank 0
//   rank 0's look-back warps   (positions w, w + W, ...) once rank 1's aggregate is in: resolve
//                            the pair's prefix, write rank 1's into its Control (the bytes
//                            complete rank 1's `resolved`, which its compute warps wait on)
// Each value is written only after the one before it on the same barrier was waited for, so no
// barrier is ever a phase ahead. Rank 1's warp 1 has nothing to do. The last tile of an odd count
// has no partner: its pair is its own, published by rank 0. Rank 1 publishes the pair's A before
// it hands its aggregate over, and rank 0 publishes the pair's P only after it has that; st.async
// does not order the first store before the second, but should they reach the L2 the other way
// round, the word reads A again: a true aggregate, which a look-back only walks past.
// (Handovers that released and acquired at the cluster's scope, from the compute warps, made
// every tile about 1 us slower; a pair's aggregate published by rank 0's look-back warps, behind
// the look-back before, came too late for the other pairs' look-backs.)
template <typename T, typename Op, typename Design>
__device__ void look_back_pairs(const StatusOf<T, Design>& status, unsigned long long tiles, int stage_count, int which,
                                ControlOf<T, Design>& control, PairControl<T>& pair, Trace* trace, const sg::Watchdog& dog) {
  const Op op{};
  const bool lane0 = ch03::lane_id() == 0;
  if (cluster_rank() == 1) {
    if (which != 0) return;
    PairControl<T>& pair0 = *in_cluster_block(&pair, 0);
    for (RingPosition at;; at.advance(stage_count)) {
      const int s = at.stage;
      wait_phase(&control.reduced[s], at.parity, dog, 0);
      const unsigned long long tile = control.tile_of[s];
      if (tile == kNoTile) break;
      if (lane0) arrive_expect_bytes(&pair.partner_reduced[s], sizeof(T));
      wait_phase(&pair.partner_reduced[s], at.parity, dog, tile - 1);  // rank 0's aggregate
      if (lane0) {
        const T own = control.aggregate[s];
        status.publish(tile / 2, tile < 2 ? ch09::kInclusive : ch09::kAggregate, op(pair.partner_aggregate[s], own));
        store_to_cluster_block(&pair0.partner_aggregate[s], own, &pair0.partner_reduced[s]);
      }
    }
    return;
  }
  ControlOf<T, Design>& rank1 = *in_cluster_block(&control, 1);
  unsigned long long lookbacks = 0, busy_ns = 0;
  ch09::LookCounts counts;
  RingPosition at;
  for (int w = 0; w < which; ++w) at.advance(stage_count);
  for (;; [&] { for (int w = 0; w < Design::kLookBackWarps; ++w) at.advance(stage_count); }()) {
    const int s = at.stage;
    wait_phase(&control.reduced[s], at.parity, dog, 0);
    const unsigned long long tile = control.tile_of[s];
    if (tile == kNoTile) break;
    const T own = control.aggregate[s];
    const unsigned long long pair_tile = tile / 2;
    const bool has_partner = tile + 1 < tiles;
    T pair_total = own;
    if (has_partner) {
      if (lane0) arrive_expect_bytes(&pair.partner_reduced[s], sizeof(T));
      wait_phase(&pair.partner_reduced[s], at.parity, dog, tile + 1);  // rank 1's aggregate (the pair's is published)
      pair_total = op(own, pair.partner_aggregate[s]);
    } else if (lane0) {
      status.publish(pair_tile, pair_tile == 0 ? ch09::kInclusive : ch09::kAggregate, own);
    }
    const unsigned long long start = Design::kTrace ? sg::global_time_ns() : 0;
    T prefix = Op::template identity<T>();
    if (pair_tile != 0) prefix = Design::LookBack::resolve(status, pair_tile, pair_total, op, dog, true, Design::kTrace ? &counts : nullptr);
    if constexpr (Design::kTrace) busy_ns += sg::global_time_ns() - start, lookbacks += pair_tile != 0;
    if (lane0) {
      control.prefix[s] = prefix;
      arrive(&control.resolved[s]);
      if (has_partner) store_to_cluster_block(&rank1.prefix[s], op(prefix, own), &rank1.resolved[s]);
    }
  }
  if (Design::kTrace) add_lookback_trace(trace, lookbacks, counts, busy_ns);
}

// The sweep's status word per run: a look-back per run of K tiles. Warp w takes runs w, w + W, w + 2W, ... of the block,
// each K consecutive ring positions: it waits until the run's tiles are reduced (the compute
// warps have published the run's aggregate by then), resolves the run's prefix from the other
// runs' status words, and hands each tile its prefix: the run's, then that and the aggregates of
// the tiles before it in the run. The array's last run may be shorter: a position whose tile is
// kNoTile ends it.
template <typename T, typename Op, typename Design>
__device__ void look_back_runs(const StatusOf<T, Design>& status, int stage_count, int which, ControlOf<T, Design>& control, Trace* trace,
                               const sg::Watchdog& dog) {
  constexpr int K = Design::kTilesPerLookBack;
  const Op op{};
  unsigned long long lookbacks = 0, busy_ns = 0;
  ch09::LookCounts counts;
  RingPosition run_at;  // the first position of this warp's next run
  for (int i = 0; i < which * K; ++i) run_at.advance(stage_count);
  for (;;) {
    T aggregates[K];
    unsigned long long first_tile = kNoTile;
    int tiles = 0;
    RingPosition at = run_at;
    for (; tiles < K; ++tiles, at.advance(stage_count)) {
      wait_phase(&control.reduced[at.stage], at.parity, dog, 0);
      const unsigned long long tile = control.tile_of[at.stage];
      if (tile == kNoTile) break;
      if (tiles == 0) first_tile = tile;
      aggregates[tiles] = control.aggregate[at.stage];
    }
    if (tiles == 0) break;  // no more runs
    T total = aggregates[0];
    for (int i = 1; i < tiles; ++i) total = op(total, aggregates[i]);
    const unsigned long long run = first_tile / K;
    const unsigned long long start = Design::kTrace ? sg::global_time_ns() : 0;
    T prefix = run == 0 ? Op::template identity<T>()
                        : Design::LookBack::resolve(status, run, total, op, dog, true, Design::kTrace ? &counts : nullptr);
    if constexpr (Design::kTrace) busy_ns += sg::global_time_ns() - start, lookbacks += run != 0;
    at = run_at;
    for (int i = 0; i < tiles; ++i, at.advance(stage_count)) {
      if (ch03::lane_id() == 0) {
        control.prefix[at.stage] = prefix;
        arrive(&control.resolved[at.stage]);
      }
      prefix = op(prefix, aggregates[i]);
    }
    if (tiles < K) break;  // the array's last run
    for (int i = 0; i < Design::kLookBackWarps * K; ++i) run_at.advance(stage_count);
  }
  if (Design::kTrace) add_lookback_trace(trace, lookbacks, counts, busy_ns);
}

// ---- the grid's prefix warp (the sweep) -----------------------------------------------------------
// One warp for the whole grid (block 0's last), which turns every tile's A into its P in tile
// order. It keeps the combination of all tiles before `next` in a register and reads the status
// words of tiles [next, next + 32 x kSlabs) in one round trip (slab k, lane i: tile next + 32k + i,
// all loads in flight at once). The tiles from `next` up to the first one still in X have their
// aggregates: a warp scan per slab, each in front of the running total, gives their P's, which
// it publishes; then it reads again from the first tile in X. A look-back walks back one window
// per round trip, 32 tiles; this warp moves the P front forward by every tile reduced during
// its round trip, up to 32 x kSlabs (experiments.md: one warp for the whole grid's prefixes).
// Tile 0's P is the compute warps' (its aggregate); every other P is this warp's.
template <typename T, typename Op, typename Design>
__device__ __forceinline__ int publish_round_in_slabs(const StatusOf<T, Design>& status, unsigned long long tiles, unsigned long long next,
                                                      T& running) {
  constexpr int kSlabs = Design::kPrefixSlabs;
  const Op op{};
  const int lane = ch03::lane_id();
  ch09::Observed<T> seen[kSlabs];
  // every load first and unconditionally (the last tile stands in for those past the end), so
  // that all of them are in flight at once: a load behind a branch waits for the one before
#pragma unroll
  for (int k = 0; k < kSlabs; ++k) seen[k] = status.poll(next + 32ull * k + lane < tiles ? next + 32ull * k + lane : tiles - 1);
#pragma unroll
  for (int k = 0; k < kSlabs; ++k)
    if (next + 32ull * k + lane >= tiles) seen[k].status = ch09::kInvalid;
  // how many tiles from `next` on have their aggregate: whole slabs, then the first slab's
  // lanes before its first X
  int ready = 0;
#pragma unroll
  for (int k = 0; k < kSlabs; ++k) {
    const unsigned have = __ballot_sync(ch03::kFullWarp, seen[k].status != ch09::kInvalid);
    if (ready < 32 * k) continue;  // (warp-uniform) an earlier slab had a hole
    ready += have == ch03::kFullWarp ? 32 : __ffs(~have) - 1;
  }
  if (ready == 0) return 0;
#pragma unroll
  for (int k = 0; k < kSlabs; ++k) {
    if (32 * k >= ready) break;  // (warp-uniform)
    const bool mine = 32 * k + lane < ready;
    const T inclusive = op(running, ch03::warp_inclusive_scan(mine ? seen[k].value : Op::template identity<T>(), op));
    const unsigned long long j = next + 32ull * k + lane;
    if (mine && j > 0) status.publish(j, ch09::kInclusive, inclusive);
    running = ch03::warp_broadcast_last(inclusive);  // the identity after the last ready lane changes nothing
  }
  return ready;
}

// The same round with its tiles in runs per lane (kPrefixLaneRuns): lane i reads tiles
// next + K i to next + K i + K - 1 (all K loads in flight at once), combines its ready ones in
// order, and one warp scan puts each lane's run behind the runs before it. The slab layout
// above needs a warp scan per slab, each behind the one before (the running total): its round
// grew with its slabs (8: 2.6 us, 16: 4.3 us traced on the H200), a chain of shuffles, not the
// round trip. This round takes 1.5 us, and the warp keeps up (experiments.md: a prefix warp that
// keeps up).
template <typename T, typename Op, typename Design>
__device__ __forceinline__ int publish_round_in_lane_runs(const StatusOf<T, Design>& status, unsigned long long tiles, unsigned long long next,
                                                          T& running) {
  constexpr int K = Design::kPrefixSlabs;
  const Op op{};
  const int lane = ch03::lane_id();
  const unsigned long long first = next + static_cast<unsigned long long>(K) * lane;
  ch09::Observed<T> seen[K];
#pragma unroll
  for (int k = 0; k < K; ++k) seen[k] = status.poll(first + k < tiles ? first + k : tiles - 1);
  int have = K;  // my tiles before my first X (or the array's end)
#pragma unroll
  for (int k = K - 1; k >= 0; --k)
    if (first + k >= tiles || seen[k].status == ch09::kInvalid) have = k;
  const unsigned short_runs = __ballot_sync(ch03::kFullWarp, have < K);
  const int hole_lane = short_runs != 0 ? __ffs(short_runs) - 1 : 32;
  const int hole_have = __shfl_sync(ch03::kFullWarp, have, hole_lane & 31);
  const int ready = hole_lane == 32 ? 32 * K : hole_lane * K + hole_have;  // tiles from `next` on with an aggregate
  if (ready == 0) return 0;
  const int count = std::min(std::max(ready - K * lane, 0), K);  // my tiles that count
  T run = Op::template identity<T>();
#pragma unroll
  for (int k = 0; k < K; ++k)
    if (k < count) run = op(run, seen[k].value);
  const T inclusive = ch03::warp_inclusive_scan(run, op);
  T prefix = op(running, ch03::warp_exclusive_from_inclusive(inclusive, op));
#pragma unroll
  for (int k = 0; k < K; ++k)
    if (k < count) {
      prefix = op(prefix, seen[k].value);
      if (first + k > 0) status.publish(first + k, ch09::kInclusive, prefix);
    }
  running = op(running, ch03::warp_broadcast_last(inclusive));  // lanes past `ready` added the identity
  return ready;
}

// The warp: round after round, until every tile has its P; a round that found no tile ready
// waits within the watchdog's budget.
template <typename T, typename Op, typename Design>
__device__ void prefix_warp(const StatusOf<T, Design>& status, unsigned long long tiles, Trace* trace, const sg::Watchdog& dog) {
  T running = Op::template identity<T>();  // the tiles before `next`, combined
  unsigned long long next = 0, rounds = 0;
  sg::WaitBudget budget(dog);
  while (next < tiles) {
    int ready;
    if constexpr (Design::kPrefixLaneRuns) ready = publish_round_in_lane_runs<T, Op, Design>(status, tiles, next, running);
    else ready = publish_round_in_slabs<T, Op, Design>(status, tiles, next, running);
    ++rounds;
    if (ready == 0) {
      if (__shfl_sync(ch03::kFullWarp, ch03::lane_id() == 0 && !budget.keep_waiting(next, next), 0)) break;  // gave up: the launch is reported failed
      continue;
    }
    next += static_cast<unsigned long long>(ready);
    budget = sg::WaitBudget(dog);  // progress: a new wait starts
  }
  if (Design::kTrace && ch03::lane_id() == 0) {
    atomicAdd(&trace->prefix_rounds, rounds);
    atomicAdd(&trace->prefix_tiles, next);
  }
}

// ---- the compute warps: storing a scanned stage -----------------------------------------------
// Ordinary stores of positions [from, to) of the tile: 16-byte vectors over the aligned middle
// when out is aligned like in, elements everywhere else.
template <typename T, typename Design>
__device__ __forceinline__ void store_with_threads(T* aligned_out, const T* stage, const TileSpan& span, std::size_t from, std::size_t to,
                                                   bool vectors) {
  const int t = static_cast<int>(threadIdx.x);
  if (vectors) {
    for (std::size_t p = span.core_lo + t * kVector<T>; p < span.core_hi; p += kComputeThreads<Design> * kVector<T>)
      *reinterpret_cast<uint4*>(aligned_out + p) = *reinterpret_cast<const uint4*>(stage + (p - span.first));
    for (std::size_t p = from + t; p < span.core_lo && p < to; p += kComputeThreads<Design>) aligned_out[p] = stage[p - span.first];
    for (std::size_t p = (span.core_hi > from ? span.core_hi : from) + t; p < to; p += kComputeThreads<Design>) aligned_out[p] = stage[p - span.first];
  } else {
    for (std::size_t p = from + t; p < to; p += kComputeThreads<Design>) aligned_out[p] = stage[p - span.first];
  }
}

// The compute warps' state between tiles (every thread's; thread 0's alone when only it frees
// stages): which bulk stores may still be reading which stages, oldest first. Up to P =
// kInFlight of them are left reading while the warps go on (P = 1 until the sweep's stores in
// flight); the older ones are waited for and freed. Every index is a constant once the loops
// are unrolled, so the list lives in registers, not in local memory.
template <int kInFlight>
struct StoreState {
  int pending[kInFlight + 1];
  int count = 0;
  bool left_reading = false;  // (EndWithoutStoreWaits) stores at the end, not counted, still reading their stages
  __device__ void push(int stage) {
#pragma unroll
    for (int i = 0; i <= kInFlight; ++i)
      if (i == count) pending[i] = stage;
    ++count;
  }
  // frees the oldest stages until `keep` are left (their stores have read them: thread 0
  // waited), arriving on their `empty` barriers (the lag in the L2: the scan buffers')
  __device__ void free_oldest(Mbarrier* empty, int keep) {
#pragma unroll
    for (int round = 0; round <= kInFlight; ++round) {
      if (count <= keep) break;
      arrive(&empty[pending[0]]);
#pragma unroll
      for (int i = 0; i < kInFlight; ++i) pending[i] = pending[i + 1];
      --count;
    }
  }
};

// The scanned tile in `stage` goes out; then the stage is handed back (empty: the barriers of
// the producer's stages, or with the lag in the L2 the re-reader's buffers).
template <typename T, typename Design, typename Stores>
__device__ __forceinline__ void store_stage(T* out, const Layout& layout, T* stage, int s, std::size_t tile, Mbarrier* empty, Stores& stores,
                                            bool stage_not_reused = false) {
  const TileSpan span = tile_span<T, Design>(layout, tile);
  T* aligned_out = out - layout.shift;  // aligned when same_alignment; only ever indexed inside [lo, hi)
  fence_shared_for_bulk_copies();  // my stores into the stage, before the bulk store reads it (or a bulk load refills it)
  const bool by_warps = Design::kWarpStores && Design::kBulkStores && layout.same_alignment;  // (WarpStores)
  if (by_warps) {
    __syncwarp();  // my warp's stores into the stage: its lane 0 stores the warp's part
  } else {
    ComputeBarrier<Design>::sync();
  }
  if (Design::kBulkStores && layout.same_alignment) {
    // The part of the tile this thread helps store: the whole tile, or (WarpStores) its warp's
    // kItems x 32 elements. [lo, hi) holds array elements, [core_lo, core_hi) their aligned middle.
    constexpr std::size_t kWarpPart = static_cast<std::size_t>(kItems<T>) * 32;
    const std::size_t part_first = by_warps ? span.first + threadIdx.x / 32 * kWarpPart : span.first;
    const std::size_t part_end = by_warps ? part_first + kWarpPart : span.first + kTileItems<T, Design>;
    const std::size_t lo = span.lo > part_first ? span.lo : part_first;
    const std::size_t hi = span.hi < part_end ? (span.hi > lo ? span.hi : lo) : part_end;
    const std::size_t core_lo = span.core_lo < lo ? lo : (span.core_lo > hi ? hi : span.core_lo);
    const std::size_t core_hi = span.core_hi < core_lo ? core_lo : (span.core_hi > hi ? hi : span.core_hi);
    if (issues_bulk_stores<Design>()) {
      const unsigned bytes = static_cast<unsigned>((core_hi - core_lo) * sizeof(T));
      if constexpr (Design::kL2Hints) {  // (the lag in the L2) the output need not stay in the L2
        if (bytes > 0) bulk_store(aligned_out + core_lo, stage + (core_lo - span.first), bytes, l2_evict_first_policy());
      } else {
        if (bytes > 0) bulk_store(aligned_out + core_lo, stage + (core_lo - span.first), bytes);
      }
      commit_bulk_stores();
    }
    // the elements before and after the aligned middle (first and last tile only)
    const int rank = by_warps ? static_cast<int>(threadIdx.x & 31u) : static_cast<int>(threadIdx.x);
    const int stride = by_warps ? 32 : kComputeThreads<Design>;
    for (std::size_t p = lo + rank; p < core_lo; p += stride) aligned_out[p] = stage[p - span.first];
    for (std::size_t p = core_hi + rank; p < hi; p += stride) aligned_out[p] = stage[p - span.first];
    if (Design::kEndWithoutStoreWaits && stage_not_reused) {
      stores.left_reading = true;  // (EndWithoutStoreWaits) waited for once, in drain_stores
    } else if (frees_stages<Design>()) {
      // the store committed before this one has read its stage: free that stage, if step 6
      // has not already. (This one's stage is freed after the next store, or in step 6 after
      // the next reduce: waiting for it now would stall the warps.) Every thread arrives once
      // done with the stage (its ordinary reads above: head and tail), the thread that issued a
      // bulk store (thread 0; WarpStores: each warp's lane 0) once that store has read it too.
      // (Thread 0 alone: the next tile's barrier orders the others'.)
      stores.push(s);
      if (issues_bulk_stores<Design>()) wait_bulk_store_reads<Design::kStoresInFlight>();
      stores.free_oldest(empty, Design::kStoresInFlight);
    }
  } else {
    store_with_threads<T, Design>(aligned_out, stage, span, span.lo, span.hi, layout.same_alignment);
    ComputeBarrier<Design>::sync();  // every thread has read the stage
    if (frees_stages<Design>()) arrive(&empty[s]);
  }
}

// Step 6: the last bulk store has been issued a reduce ago, long enough for the copy engine to
// have read its 16 KiB: wait for that (rarely a wait at all) and hand the stage back now, not a
// whole tile later at the next store. The stage starts loading a tile sooner: one more stage
// of bytes in flight (README: Little's law). Every compute thread, the ones that issued bulk stores
// after their waits (or thread 0 alone, after the reduce's barrier, which every thread's reads of
// that stage precede).
template <typename Design, typename Stores>
__device__ __forceinline__ void release_stored_stage(Mbarrier* empty, Stores& stores) {
  if (stores.count < Design::kStoresInFlight) return;
  if (issues_bulk_stores<Design>()) wait_bulk_store_reads<Design::kStoresInFlight - 1>();
  stores.free_oldest(empty, Design::kStoresInFlight - 1);
}

// Before the block ends: the last bulk stores have read their stages.
template <typename Design, typename Stores>
__device__ __forceinline__ void drain_stores(Stores& stores) {
  if (issues_bulk_stores<Design>() && (stores.count > 0 || stores.left_reading)) wait_bulk_store_reads<0>();
}

// ---- the compute warps ------------------------------------------------------------------------
// The sweep's DrainLooksBack: the end of a block. Its tiles have run out, and the lag's `waiting`
// tiles (from ring position `at` on) wait for their prefixes with no tile left to hide the wait
// behind. The look-back warps reach them one after another, each tile behind the look-backs
// queued before it (two warps, each busy over 90% of the time), while the compute warps sit
// idle. So compute warp w looks back for the w-th waiting tile itself, with chapter 09's warp
// look-back, unless a look-back warp has resolved it already: the lag's look-backs run side by
// side. The look-back warps still resolve those tiles too; both publish the same P, and the scan
// takes the compute warps' prefix (own_prefix), never reading the look-back warp's. It makes the
// end longer, not shorter (README: step 11): a look-back's length is its walk to
// the nearest P, not its place in the queue, and every scan of the lag now waits for the slowest.
template <typename T, typename Op, typename Design>
__device__ void look_back_the_lag(ControlOf<T, Design>& control, const StatusOf<T, Design>& status, RingPosition at, int waiting,
                                  int stage_count, const sg::Watchdog& dog) {
  const int warp = static_cast<int>(threadIdx.x) / 32, lane = ch03::lane_id();
  for (int i = 0; i < warp; ++i) at.advance(stage_count);
  for (int i = warp; i < waiting; i += Design::kComputeWarps) {  // (a lag longer than the compute warps: again)
    const int s = at.stage;
    const unsigned long long tile = control.tile_of[s];
    const bool resolved = __shfl_sync(ch03::kFullWarp, lane == 0 && phase_complete(&control.resolved[s], at.parity), 0);
    if (!resolved) {
      const T prefix = tile == 0 ? Op::template identity<T>()
                                 : Design::DrainLookBack::resolve(status, tile, control.aggregate[s], Op{}, dog, true);
      if (lane == 0) control.own_prefix[s] = prefix;
    }
    if (lane == 0) control.looked_back[s] = !resolved;
    for (int k = 0; k < Design::kComputeWarps; ++k) at.advance(stage_count);
  }
  ComputeBarrier<Design>::sync();  // every own prefix written before the scans read them
}

// The sweep's DrainLooksToOwnTiles: the same end of a block, without the walks. Compute warp w
// looks at the status words between the w-th waiting tile and the block's tile before it (the
// last one scanned, or the waiting tile before), unless a look-back warp has resolved the tile
// already; every look runs at once, and none goes further back than the block's own tiles. Thread
// 0 then chains the prefixes in tile order from the last scanned tile's P, publishes them, and
// tells the look-back warps (lag_resolved), which hand the rest of the lag on as it is.
template <typename T, typename Op, typename Design>
__device__ void look_at_the_lag(ControlOf<T, Design>& control, const StatusOf<T, Design>& status, RingPosition at, int waiting, int stage_count,
                                const sg::Watchdog& dog) {
  using Look = LookBackToOwnTile<Design::kOwnTileSlabs>;
  const Op op{};
  const int warp = static_cast<int>(threadIdx.x) / 32, lane = ch03::lane_id();
  RingPosition mine = at, before = at;
  for (int i = 0; i < warp; ++i) before = mine, mine.advance(stage_count);
  for (int i = warp; i < waiting; i += Design::kComputeWarps) {  // (a lag longer than the compute warps: again)
    const int s = mine.stage;
    const unsigned long long tile = control.tile_of[s];
    const unsigned long long own_previous = i == 0 ? control.last_scanned_tile : control.tile_of[before.stage];
    const bool resolved = __shfl_sync(ch03::kFullWarp, lane == 0 && phase_complete(&control.resolved[s], mine.parity), 0);
    if (!resolved) {
      typename Look::template Between<T> look{Op::template identity<T>(), true};
      if (Look::in_one_look(tile, own_previous)) look = Look::template look_between<T>(status, tile, own_previous, op, dog, nullptr);
      else if (tile != 0) look.window = Design::DrainLookBack::resolve(status, tile, control.aggregate[s], op, dog, true);  // too far: walk
      if (lane == 0) control.own_prefix[s] = look.window, control.own_window_reached_p[s] = look.reached_p;
    }
    if (lane == 0) control.looked_back[s] = !resolved;
    for (int k = 0; k < Design::kComputeWarps; ++k) before = mine, mine.advance(stage_count);
  }
  ComputeBarrier<Design>::sync();  // every look done
  if (threadIdx.x == 0) {
    T p = control.last_scanned_p;  // the P of the block's tile before the lag (unused if there is none: then the first look walked)
    for (int i = 0; i < waiting; ++i, at.advance(stage_count)) {
      const int s = at.stage;
      T prefix = control.prefix[s];  // resolved by a look-back warp before the looks began
      if (control.looked_back[s]) {
        prefix = control.own_window_reached_p[s] ? control.own_prefix[s] : op(p, control.own_prefix[s]);
        status.publish(control.tile_of[s], ch09::kInclusive, op(prefix, control.aggregate[s]));
      }
      control.own_prefix[s] = prefix;
      control.looked_back[s] = true;
      p = op(prefix, control.aggregate[s]);
    }
    arrive(&control.lag_resolved);
  }
  ComputeBarrier<Design>::sync();  // every own prefix written before the scans read them
}

// Traced launches: thread 0 of the compute warps times its waits.
struct ComputeClock {
  unsigned long long start = 0, load_wait_ns = 0, prefix_wait_ns = 0, waited_loads = 0, waited_load_latency_ns = 0;
  unsigned long long first_landed_ns = 0, last_reduced_ns = 0, reread_wait_ns = 0;
  unsigned long long last_prefix_ns = 0, end_prefix_wait_ns = 0, end_store_ns = 0;  // (the end: after the last reduce)
  unsigned long long first_store_ns = 0, lap_scanned_ns = 0, start_prefix_wait_ns = 0, start_load_wait_ns = 0;  // (the start: the first S scans)
  unsigned long long lag_landed_ns = 0, first_prefix_ns = 0;  // (the start: tile L landed, the first scan's prefix came)
  bool ending = false;
  unsigned tiles = 0;
  int scans = 0, lap = 0, lag = 0;  // tiles scanned so far; the ring's stages (the start is the first lap of scans); the lag
  Trace* trace = nullptr;                   // (the aggregates' timing: per tile)
  unsigned long long prefix_waits_at_ask = 0;  // prefix_wait_ns when the warps last asked for a tile
  __device__ bool starting() const { return scans < lap; }
};

// ... and at the end adds them to the launch's sums, and its block's timeline.
__device__ __forceinline__ void add_compute_trace(Trace* trace, const ComputeClock& clock) {
  if (threadIdx.x != 0) return;
  atomicAdd(&trace->compute_ns, sg::global_time_ns() - clock.start);
  atomicAdd(&trace->load_wait_ns, clock.load_wait_ns);
  atomicAdd(&trace->prefix_wait_ns, clock.prefix_wait_ns);
  atomicAdd(&trace->reread_wait_ns, clock.reread_wait_ns);
  atomicAdd(&trace->waited_loads, clock.waited_loads);
  atomicAdd(&trace->waited_load_latency_ns, clock.waited_load_latency_ns);
  if (blockIdx.x < Trace::kTimelineBlocks) {
    trace->first_landed_ns[blockIdx.x] = clock.first_landed_ns;
    trace->last_reduced_ns[blockIdx.x] = clock.last_reduced_ns;
    trace->last_prefix_ns[blockIdx.x] = clock.last_prefix_ns;
    trace->end_prefix_wait_ns[blockIdx.x] = clock.end_prefix_wait_ns;
    trace->end_store_ns[blockIdx.x] = clock.end_store_ns;
    trace->first_store_ns[blockIdx.x] = clock.first_store_ns;
    trace->lap_scanned_ns[blockIdx.x] = clock.lap_scanned_ns;
    trace->lag_landed_ns[blockIdx.x] = clock.lag_landed_ns;
    trace->first_prefix_ns[blockIdx.x] = clock.first_prefix_ns;
    trace->start_prefix_wait_ns[blockIdx.x] = clock.start_prefix_wait_ns;
    trace->start_load_wait_ns[blockIdx.x] = clock.start_load_wait_ns;
    trace->ended_ns[blockIdx.x] = sg::global_time_ns();
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    trace->sm_of_block[blockIdx.x] = sm;
    trace->tiles_of_block[blockIdx.x] = clock.tiles;
  }
}

template <typename Design, typename Wait>
__device__ __forceinline__ void timed_wait(unsigned long long& waited_ns, Wait wait) {
  if (!Design::kTrace || threadIdx.x != 0) return wait();
  const unsigned long long before = sg::global_time_ns();
  wait();
  waited_ns += sg::global_time_ns() - before;
}

// Waits for stage s to land. Traced: a load the warps had to wait for landed about when the
// wait ended, so (end of the wait - issue) is that load's latency under this load.
template <typename T, typename Design>
__device__ __forceinline__ void wait_for_tile(ControlOf<T, Design>& control, int s, unsigned parity, ComputeClock& clock, const sg::Watchdog& dog) {
  if (!Design::kTrace || threadIdx.x != 0) {
    wait_phase(&control.full[s], parity, dog, 0);
    return;
  }
  const bool landed = phase_complete(&control.full[s], parity);
  const unsigned long long waited_before = clock.load_wait_ns;
  timed_wait<Design>(clock.load_wait_ns, [&] { wait_phase(&control.full[s], parity, dog, 0); });
  const unsigned long long tile = control.tile_of[s];
  if (clock.trace != nullptr && tile < Trace::kTracedTiles) {
    clock.trace->tile_issued_ns[tile] = control.issued_ns[s];
    clock.trace->tile_had_ns[tile] = sg::global_time_ns();
    clock.trace->tile_waited[tile] = !landed;
    clock.trace->tile_scan_waits_ns[tile] = clock.prefix_wait_ns - clock.prefix_waits_at_ask;
  }
  clock.prefix_waits_at_ask = clock.prefix_wait_ns;
  if (clock.starting()) clock.start_load_wait_ns += clock.load_wait_ns - waited_before;
  if (clock.first_landed_ns == 0) clock.first_landed_ns = sg::global_time_ns();
  clock.tiles += tile != kNoTile;
  if (clock.tiles == static_cast<unsigned>(clock.lag) + 1 && clock.lag_landed_ns == 0) clock.lag_landed_ns = sg::global_time_ns();
  if (!landed && tile != kNoTile) ++clock.waited_loads, clock.waited_load_latency_ns += sg::global_time_ns() - control.issued_ns[s];
}

// A tile scanned alone when it landed, given its prefix P: each x, which holds the tile's
// elements up to it combined in order, becomes op(P, x), the scan's element for any associative
// operator (ScanWhenLandedOf, LastRoundsScannedWhenLandedOf).
template <typename T, typename Op, int kCount>
__device__ __forceinline__ void combine_prefix(T (&items)[kCount], Op op, T prefix) {
#pragma unroll
  for (int i = 0; i < kCount; ++i) items[i] = op(prefix, items[i]);
}

// (FusedEndOf) The block's end: the `tiles` tiles from `at` on, scanned alone when they landed,
// wait for their prefixes. Each thread maps its items of each tile as its prefix comes, in order;
// then one barrier, and their stores go out back to back (waited for in drain_stores).
template <typename T, typename Op, typename Design, typename Stores>
__device__ void store_the_lag_together(T* __restrict__ out, const Layout& layout, T* stages, int stage_count, ControlOf<T, Design>& control,
                                       RingPosition at, int tiles, Stores& stores, ComputeClock& clock, const sg::Watchdog& dog) {
  const Op op{};
  T items[kItems<T>];
  const RingPosition first = at;
  for (int k = 0; k < tiles; ++k, at.advance(stage_count)) {
    const int s = at.stage;
    T* stage = stages + static_cast<std::size_t>(s) * kTileItems<T, Design>;
    const unsigned long long waited_before = clock.prefix_wait_ns;
    timed_wait<Design>(clock.prefix_wait_ns, [&] { wait_phase(&control.resolved[s], at.parity, dog, control.tile_of[s]); });
    if constexpr (Design::kTrace)
      if (threadIdx.x == 0) clock.last_prefix_ns = sg::global_time_ns(), clock.end_prefix_wait_ns += clock.prefix_wait_ns - waited_before;
    const T prefix = control.prefix[s];
    read_stage(stage, items);
    combine_prefix(items, op, prefix);
    write_stage(stage, items);
  }
  const unsigned long long mapped_ns = Design::kTrace && threadIdx.x == 0 ? sg::global_time_ns() : 0;
  fence_shared_for_bulk_copies();  // my stores into the stages, before the bulk stores read them
  ComputeBarrier<Design>::sync();
  T* aligned_out = out - layout.shift;  // aligned when same_alignment; only ever indexed inside [lo, hi)
  at = first;
  for (int k = 0; k < tiles; ++k, at.advance(stage_count)) {
    const T* stage = stages + static_cast<std::size_t>(at.stage) * kTileItems<T, Design>;
    const TileSpan span = tile_span<T, Design>(layout, control.tile_of[at.stage]);
    if (layout.same_alignment) {
      const std::size_t core_lo = span.core_lo < span.lo ? span.lo : (span.core_lo > span.hi ? span.hi : span.core_lo);
      const std::size_t core_hi = span.core_hi < core_lo ? core_lo : (span.core_hi > span.hi ? span.hi : span.core_hi);
      if (threadIdx.x == 0) {
        const unsigned bytes = static_cast<unsigned>((core_hi - core_lo) * sizeof(T));
        if (bytes > 0) bulk_store(aligned_out + core_lo, stage + (core_lo - span.first), bytes);
        commit_bulk_stores();
      }
      for (std::size_t p = span.lo + threadIdx.x; p < core_lo; p += kComputeThreads<Design>) aligned_out[p] = stage[p - span.first];
      for (std::size_t p = core_hi + threadIdx.x; p < span.hi; p += kComputeThreads<Design>) aligned_out[p] = stage[p - span.first];
    } else {
      store_with_threads<T, Design>(aligned_out, stage, span, span.lo, span.hi, false);
    }
  }
  stores.left_reading = true;  // drain_stores waits for them all to read their stages
  if constexpr (Design::kTrace)
    if (threadIdx.x == 0) clock.end_store_ns += sg::global_time_ns() - mapped_ns;
}

template <typename T, typename Op, bool kExclusive, typename Design>
__device__ void compute(T* __restrict__ out, const Layout& layout, T* stages, int stage_count, int lag, ControlOf<T, Design>& control,
                        const StatusOf<T, Design>& status, Trace* trace, const sg::Watchdog& dog, PairControl<T>* pair = nullptr) {
  using Scan = typename ControlOf<T, Design>::Scan;
  using LookBack = typename Design::LookBack;
  using Laid = ItemsAsLaid<T, kItems<T>>;  // (ItemsAsLaidOf)
  const Op op{};
  StoreState<Design::kStoresInFlight> stores;
  ComputeClock clock;
  if (Design::kTrace && threadIdx.x == 0) clock.start = sg::global_time_ns(), clock.trace = trace;
  clock.lap = stage_count, clock.lag = lag;
  T items[kItems<T>];

  if constexpr (Design::kCopyOnly) {
    for (RingPosition at;; at.advance(stage_count)) {
      const int s = at.stage;
      wait_for_tile<T, Design>(control, s, at.parity, clock, dog);
      const unsigned long long tile = control.tile_of[s];
      if (tile == kNoTile) break;
      store_stage<T, Design>(out, layout, stages + static_cast<std::size_t>(s) * kTileItems<T, Design>, s, tile, control.empty, stores);
    }
  } else if constexpr (!Design::kLookBackWarp) {
    static_assert(Design::kTilesPerLookBack == 1, "runs of tiles are resolved by the look-back warp");
    // Step 2: one tile at a time; warp 0 looks back inside the scan, as in chapter 09.
    for (RingPosition at;; at.advance(stage_count)) {
      const int s = at.stage;
      wait_for_tile<T, Design>(control, s, at.parity, clock, dog);
      const unsigned long long tile = control.tile_of[s];
      if (tile == kNoTile) break;
      T* stage = stages + static_cast<std::size_t>(s) * kTileItems<T, Design>;
      read_stage(stage, items);
      auto look_back = [&](T tile_total) { return LookBack::exclusive_prefix(status, tile, tile_total, op, dog, true); };
      Scan::template scan<kExclusive>(items, op, control.scan_storage, look_back);
      write_stage(stage, items);
      store_stage<T, Design>(out, layout, stage, s, tile, control.empty, stores);
    }
  } else {
    // Steps 3-8: reduce tile k and publish its aggregate; then scan tile k - L, which waited
    // in its stage while the look-back warp resolved its prefix.
    RingPosition scan_at;
    int reduced_ahead = 0;  // tiles reduced but not scanned yet
    T run_total = Op::template identity<T>();  // (a status word per run, thread 0) the aggregate of the run so far
    RingPosition end_at;  // where the tiles ran out
    bool draining = false;  // the tiles have run out: no stage is loaded again (DrainLooksBack: the lag's own prefixes may be there)
    unsigned reduces = 0;  // (WarpStores) which of the two reduce storages the next reduce uses
    int reduced_tiles = 0;  // (LagGrowingAtTheStart) the block's tiles reduced so far
    unsigned long long own_previous = kNoTile;  // (StopAtOwnTile, thread 0) the block's tile before this one
    if constexpr (Design::kDrainToOwnTiles)
      if (threadIdx.x == 0) control.last_scanned_tile = kNoTile;
    auto scan_and_store = [&] {
      const int s = scan_at.stage;
      const unsigned long long tile = control.tile_of[s];
      T* stage = stages + static_cast<std::size_t>(s) * kTileItems<T, Design>;
      if constexpr (Design::kItemsAsLaid) Laid::read(stage, items);
      else read_stage(stage, items);
      auto known_prefix = [&](T) {
        T prefix;
        if (Design::kDrainLooksBack && draining && control.looked_back[s]) {
          prefix = control.own_prefix[s];
        } else {
          const unsigned long long waited_before = clock.prefix_wait_ns;
          timed_wait<Design>(clock.prefix_wait_ns, [&] { wait_phase(&control.resolved[s], scan_at.parity, dog, tile); });
          if constexpr (Design::kTrace)
            if (threadIdx.x == 0) {
              clock.last_prefix_ns = sg::global_time_ns();
              if (clock.first_prefix_ns == 0) clock.first_prefix_ns = clock.last_prefix_ns;
              if (clock.ending) clock.end_prefix_wait_ns += clock.prefix_wait_ns - waited_before;
              if (clock.starting()) clock.start_prefix_wait_ns += clock.prefix_wait_ns - waited_before;
            }
          prefix = control.prefix[s];
        }
        if constexpr (Design::kDrainToOwnTiles)  // (thread 0, for the lag's looks at the end)
          if (threadIdx.x == 0) control.last_scanned_tile = tile, control.last_scanned_p = op(prefix, control.aggregate[s]);
        return prefix;
      };
      if constexpr (Design::kScanWhenLanded) {
        // (ScanWhenLandedOf) the stage holds the tile scanned alone: every thread waits for the prefix
        // and combines it into its items; no barrier of the block
        if (threadIdx.x == 0) {
          (void)known_prefix(T{});  // thread 0: timed, as in every design
        } else {
          wait_phase(&control.resolved[s], scan_at.parity, dog, tile);
        }
        combine_prefix(items, op, control.prefix[s]);
      } else if constexpr (Design::kWarpPrefixSlots > 0) {
        // (WarpPrefixesFromTheReduce) every thread waits for the prefix; no barrier of the block
        if (threadIdx.x == 0) {
          (void)known_prefix(T{});  // thread 0: timed, as in every design
        } else {
          wait_phase(&control.resolved[s], scan_at.parity, dog, tile);
        }
        if (Design::kLandedScanRounds > 0 && in_last_rounds(tile, Design::kLandedScanRounds, layout)) {
          combine_prefix(items, op, control.prefix[s]);  // (LastRoundsScannedWhenLandedOf) the stage holds the tile scanned alone
        } else {
          const T before_warp = op(control.prefix[s], control.warp_before[s][threadIdx.x / ch03::kWarpSize]);
          if constexpr (Design::kItemsAsLaid) Laid::template scan_after_reduce<kExclusive, Scan>(items, op, before_warp);
          else Scan::template scan_after_reduce<kExclusive>(items, op, before_warp);
        }
      } else {
        Scan::template scan<kExclusive>(items, op, control.scan_storage, known_prefix);
      }
      if constexpr (Design::kItemsAsLaid) Laid::write(stage, items);
      else write_stage(stage, items);
      const unsigned long long scanned_ns = Design::kTrace && threadIdx.x == 0 && clock.ending ? sg::global_time_ns() : 0;
      if constexpr (Design::kTrace)
        if (threadIdx.x == 0 && clock.first_store_ns == 0) clock.first_store_ns = sg::global_time_ns();
      store_stage<T, Design>(out, layout, stage, s, tile, control.empty, stores, draining);
      if constexpr (Design::kTrace)
        if (threadIdx.x == 0 && ++clock.scans == clock.lap) clock.lap_scanned_ns = sg::global_time_ns();
      if (Design::kTrace && threadIdx.x == 0 && clock.ending) clock.end_store_ns += sg::global_time_ns() - scanned_ns;
      scan_at.advance(stage_count);
      --reduced_ahead;
    };
    for (RingPosition at;; at.advance(stage_count)) {
      const int s = at.stage;
      wait_for_tile<T, Design>(control, s, at.parity, clock, dog);
      const unsigned long long tile = control.tile_of[s];
      if (tile == kNoTile) {
        // tells the look-back warps to stop: each waits at one of the next W positions. (This
        // stage's tile_of says so already; the stages after it hold tiles of the last lap,
        // scanned already since S >= L + 2: nobody reads their tile_of any more.)
        if (threadIdx.x == 0) {
          arrive(&control.reduced[s]);
          if constexpr (!Design::kRunStatus) stop_look_back_warps(control, control.tile_of, at, Design::kLookBackWarps - 1, stage_count);
        }
        // (WarpStores) warp 0 wrote the warps' prefixes of each tile before the next reduce's
        // barrier, which every warp crosses before scanning that tile. The lag's last tiles have
        // no next reduce: this barrier orders them. (A __syncwarp in warp 0 before thread 0
        // arrives on `reduced` orders them too, through `resolved`, but racecheck cannot follow
        // that chain and reports every such read.)
        if constexpr (Design::kWarpStores) ComputeBarrier<Design>::sync();
        end_at = at;
        draining = true;
        clock.ending = true;  // (traced) the end's waits are timed apart
        break;
      }
      T* const landed = stages + static_cast<std::size_t>(s) * kTileItems<T, Design>;
      if constexpr (Design::kItemsAsLaid) Laid::read(landed, items);
      else read_stage(landed, items);
      T* warp_before = nullptr;  // (WarpPrefixesFromTheReduce) kept for the scan
      if constexpr (Design::kWarpPrefixSlots > 0) warp_before = control.warp_before[s];
      T total;  // valid in warp 0
      // (LastRoundsScannedWhenLandedOf) this tile is scanned alone now: what its rescan needs
      const bool scan_now = Design::kLandedScanRounds > 0 && in_last_rounds(tile, Design::kLandedScanRounds, layout);
      T vector_totals[Laid::kVectors];
      T before_thread = Op::template identity<T>();
      if constexpr (Design::kScanWhenLanded) {
        total = Scan::template scan_alone_one_barrier<kExclusive>(items, op, control.reduce_storage[reduces++ & 1u]);
        write_stage(landed, items);  // read back by the same thread a lag later
      } else {
        auto& storage = control.reduce_storage[Design::kWarpStores ? reduces++ & 1u : 0];
        if (scan_now) before_thread = Laid::template before_thread_alone<Scan>(items, op, storage, vector_totals, total);
        else if constexpr (Design::kItemsAsLaid) total = Laid::template reduce<Scan>(items, op, storage, warp_before);
        else total = Scan::reduce(items, op, storage, warp_before);
      }
      if (threadIdx.x == 0) {
        control.aggregate[s] = total;
        if constexpr (Design::kRunStatus) {
          // a status word per run: the run's aggregate, published once its last tile is reduced
          constexpr int K = Design::kTilesPerLookBack;
          run_total = tile % K == 0 ? total : op(run_total, total);
          if (tile % K == K - 1 || tile + 1 == layout.tiles) status.publish(tile / K, tile < K ? ch09::kInclusive : ch09::kAggregate, run_total);
        } else if constexpr (Design::kClusterPairs) {
          // the pair's aggregate is published by rank 1's look-back warp 0, which needs this
          // aggregate of rank 0's; rank 1 announces the bytes of the prefix rank 0 will write
          if (cluster_rank() == 0) {
            if (tile + 1 < layout.tiles) {
              PairControl<T>& pair1 = *in_cluster_block(pair, 1);
              store_to_cluster_block(&pair1.partner_aggregate[s], total, &pair1.partner_reduced[s]);
            }
          } else {
            arrive_expect_bytes(&control.resolved[s], sizeof(T));
          }
        } else {
          status.publish(tile, tile == 0 ? ch09::kInclusive : ch09::kAggregate, total);  // at once: other blocks wait for it
        }
        if constexpr (Design::kOwnTileRounds > 0) {
          // the look-back stops at the block's previous tile if that is in its one look, in the last rounds
          const bool in_one_look = LookBackToOwnTile<Design::kOwnTileSlabs>::in_one_look(tile, own_previous);
          control.own_previous_tile[s] = in_last_rounds(tile, Design::kOwnTileRounds, layout) && in_one_look ? own_previous : kNoTile;
          own_previous = tile;
        }
        if constexpr (Design::kTrace) {
          clock.last_reduced_ns = sg::global_time_ns();
          if (tile < Trace::kTracedTiles) trace->tile_reduced_ns[tile] = clock.last_reduced_ns;
        }
        arrive(&control.reduced[s]);
      }
      if (scan_now) {  // (LastRoundsScannedWhenLandedOf) the aggregate is out: the rescan
        Laid::template rescan_alone<kExclusive>(items, vector_totals, op, before_thread);
        Laid::write(landed, items);  // read back by the same thread a lag later
      }
      if constexpr (Design::kEarlyRelease)
        if (frees_stages<Design>()) release_stored_stage<Design>(control.empty, stores);
      int lag_now = lag;
      if constexpr (Design::kEndLag > 0)  // (the sweep's ShortLagAtTheEnd) the last rounds of tiles
        if (in_last_rounds(tile, Design::kEndLagRounds, layout)) lag_now = min(lag, Design::kEndLag);
      if constexpr (Design::kStartLagStep > 0)  // (the sweep's LagGrowingAtTheStart) the block's first tiles
        lag_now = min(lag, 1 + reduced_tiles++ / Design::kStartLagStep);
      if (++reduced_ahead > lag_now) {
        scan_and_store();
        if constexpr (Design::kEndLag > 0)
          while (reduced_ahead > lag_now) scan_and_store();  // the lag has just shrunk
      } else if constexpr (!Design::kWarpStores && !Design::kScanWhenLanded) {  // (WarpStores, ScanWhenLandedOf: the next reduce writes the other storage)
        ComputeBarrier<Design>::sync();  // no scan in between: warp 0 has read reduce_storage before the next reduce writes it
      }
    }
    if constexpr (Design::kDrainToOwnTiles) {
      look_at_the_lag<T, Op, Design>(control, status, scan_at, reduced_ahead, stage_count, dog);
    } else if constexpr (Design::kDrainLooksBack) {
      look_back_the_lag<T, Op, Design>(control, status, scan_at, reduced_ahead, stage_count, dog);
    }
    if constexpr (Design::kFusedEnd) {  // (FusedEndOf) the lag's tiles together
      store_the_lag_together<T, Op, Design>(out, layout, stages, stage_count, control, scan_at, reduced_ahead, stores, clock, dog);
      reduced_ahead = 0;
    }
    while (reduced_ahead > 0) scan_and_store();
    if constexpr (Design::kRunStatus) {
      // A status word per run: the other look-back warps wait at their next run's first
      // position, or inside the last run, at most K x W - 1 positions past where the tiles ran
      // out. Those stages hold tiles of the last lap, all scanned now (and S >= K x W): tell
      // each warp to stop.
      if (threadIdx.x == 0) stop_look_back_warps(control, control.tile_of, end_at, Design::kLookBackWarps * Design::kTilesPerLookBack - 1, stage_count);
    }
  }
  drain_stores<Design>(stores);
  if constexpr (Design::kTrace) add_compute_trace(trace, clock);
}

// ---- the lag held in the L2 (the sweep's LagInL2) ---------------------------------------------
// The compute warps, as in steps 3-8, reduce tile k and scan tile k - L, with two differences: the
// stage of tile k goes back to the producer right after its reduce (every thread's reads of it
// precede the reduce's barrier), and tile k - L is scanned from the scan buffer the re-reader
// filled. Tile k's slot (its tile, A and P) is the look-back warps' ring position instead of its
// stage. A slot is reused Q tiles later, after its scan (Q >= L + W, checked by the launcher).
template <typename T, typename Op, bool kExclusive, typename Design>
__device__ void compute_with_lag_in_l2(T* __restrict__ out, const Layout& layout, T* stages, int load_stages, T* buffers, int lag,
                                       ControlOf<T, Design>& control, LagRing& ring, const StatusOf<T, Design>& status, Trace* trace,
                                       const sg::Watchdog& dog) {
  using Scan = typename ControlOf<T, Design>::Scan;
  constexpr int Q = Design::kLagSlots, B = Design::kScanBuffers;
  const Op op{};
  StoreState<1> stores;
  ComputeClock clock;
  if (Design::kTrace && threadIdx.x == 0) clock.start = sg::global_time_ns();
  T items[kItems<T>];
  RingPosition scan_slot, buffer_at;  // the next tile to scan: its slot, and the buffer its reread lands in
  int reduced_ahead = 0;
  auto scan_and_store = [&] {
    const int q = scan_slot.stage, b = buffer_at.stage;
    const unsigned long long tile = ring.tile_of_slot[q];
    timed_wait<Design>(clock.reread_wait_ns, [&] { wait_phase(&ring.reread_full[b], buffer_at.parity, dog, tile); });
    T* buffer = buffers + static_cast<std::size_t>(b) * kTileItems<T, Design>;
    read_stage(buffer, items);
    auto known_prefix = [&](T) {
      timed_wait<Design>(clock.prefix_wait_ns, [&] { wait_phase(&control.resolved[q], scan_slot.parity, dog, tile); });
      return control.prefix[q];
    };
    Scan::template scan<kExclusive>(items, op, control.scan_storage, known_prefix);
    write_stage(buffer, items);
    store_stage<T, Design>(out, layout, buffer, b, tile, ring.reread_empty, stores);
    scan_slot.advance(Q);
    buffer_at.advance(B);
    --reduced_ahead;
  };
  RingPosition slot_at;
  for (RingPosition at;; at.advance(load_stages), slot_at.advance(Q)) {
    const int s = at.stage, q = slot_at.stage;
    wait_for_tile<T, Design>(control, s, at.parity, clock, dog);
    const unsigned long long tile = control.tile_of[s];
    if (tile == kNoTile) {
      // tells the re-reader and the look-back warps to stop: each waits at one of the next W slots
      if (threadIdx.x == 0) {
        ring.tile_of_slot[q] = kNoTile;
        arrive(&control.reduced[q]);
        stop_look_back_warps(control, ring.tile_of_slot, slot_at, Design::kLookBackWarps - 1, Q);
      }
      break;
    }
    read_stage(stages + static_cast<std::size_t>(s) * kTileItems<T, Design>, items);
    const T total = Scan::reduce(items, op, control.reduce_storage[0]);  // valid in warp 0
    if (threadIdx.x == 0) {
      status.publish(tile, tile == 0 ? ch09::kInclusive : ch09::kAggregate, total);  // at once: other blocks wait for it
      control.aggregate[q] = total;
      ring.tile_of_slot[q] = tile;
      if constexpr (Design::kTrace) clock.last_reduced_ns = sg::global_time_ns();
      arrive(&control.reduced[q]);  // the look-back warp's and the re-reader's cue
    }
    if (frees_stages<Design>()) {
      arrive(&control.empty[s]);  // the stage loads the next tile now, not L tiles later
      release_stored_stage<Design>(ring.reread_empty, stores);
    }
    if (++reduced_ahead > lag) scan_and_store();
    else ComputeBarrier<Design>::sync();  // no scan in between: warp 0 has read reduce_storage before the next reduce writes it
  }
  while (reduced_ahead > 0) scan_and_store();
  drain_stores<Design>(stores);
  if constexpr (Design::kTrace) add_compute_trace(trace, clock);
}

// The re-reader warp: for each slot in turn, once its tile is reduced, a bulk copy of the tile
// from the L2 into the next scan buffer, once that buffer's last store has read it. Tile k's
// buffer frees after tile k - B's scan, L - B + 1 tiles after k's reduce, so its reread has about
// B - 1 tiles to land before its own scan. It stops at the slot whose tile is kNoTile.
template <typename T, typename Op, typename Design>
__device__ void reread_lagging_tiles(const T* __restrict__ in, const Layout& layout, T* buffers, ControlOf<T, Design>& control, LagRing& ring,
                                     const sg::Watchdog& dog) {
  const int lane = ch03::lane_id();
  const T* aligned_in = in - layout.shift;
  RingPosition buffer_at;
  for (RingPosition slot_at;; slot_at.advance(Design::kLagSlots), buffer_at.advance(Design::kScanBuffers)) {
    wait_phase(&control.reduced[slot_at.stage], slot_at.parity, dog, 0);
    const unsigned long long tile = ring.tile_of_slot[slot_at.stage];
    if (tile == kNoTile) return;
    const int b = buffer_at.stage;
    if (buffer_at.round > 0) wait_phase(&ring.reread_empty[b], buffer_at.parity ^ 1u, dog, tile);  // its last store has read it
    T* buffer = buffers + static_cast<std::size_t>(b) * kTileItems<T, Design>;
    const TileSpan span = tile_span<T, Design>(layout, tile);
    if (lane == 0) {  // the middle first, then the ends, as the producer does
      const unsigned bytes = static_cast<unsigned>((span.core_hi - span.core_lo) * sizeof(T));
      expect_bytes(&ring.reread_full[b], bytes);
      if constexpr (Design::kL2Hints) {  // the tile's last use: its lines may go first
        if (bytes > 0) bulk_load(buffer + (span.core_lo - span.first), aligned_in + span.core_lo, bytes, &ring.reread_full[b], l2_evict_first_policy());
      } else {
        if (bytes > 0) bulk_load(buffer + (span.core_lo - span.first), aligned_in + span.core_lo, bytes, &ring.reread_full[b]);
      }
    }
    fill_tile_ends<T, Op, Design>(aligned_in, span, buffer, lane);
    fence_shared_for_bulk_copies();  // these stores before a later round's bulk copy into the same buffer
    arrive(&ring.reread_full[b]);
  }
}

// The block of a LagInL2 design: S - B stages for the loads, then B scan buffers; Q slots.
template <typename T, typename Op, bool kExclusive, typename Design>
__device__ void run_with_lag_in_l2(const T* __restrict__ in, T* __restrict__ out, const Layout& layout, T* stages, int stage_count, int lag,
                                   ControlOf<T, Design>& control, LagRing& ring, const StatusOf<T, Design>& status, const PersistentTicket& ticket,
                                   Trace* trace, const sg::Watchdog& dog) {
  const int load_stages = stage_count - Design::kScanBuffers;
  T* buffers = stages + static_cast<std::size_t>(load_stages) * kTileItems<T, Design>;
  if (threadIdx.x == 0) {
    for (int s = 0; s < load_stages; ++s) {
      init_mbarrier(&control.full[s], Design::kFullArrivals);
      init_mbarrier(&control.empty[s], kStageFreers<Design>);
    }
    for (int q = 0; q < Design::kLagSlots; ++q) {
      init_mbarrier(&control.reduced[q], 1);
      init_mbarrier(&control.resolved[q], 1);
    }
    for (int b = 0; b < Design::kScanBuffers; ++b) {
      init_mbarrier(&ring.reread_full[b], 32);
      init_mbarrier(&ring.reread_empty[b], kStageFreers<Design>);
    }
    fence_mbarrier_init();
  }
  __syncthreads();  // the last block-wide barrier: from here on each warp keeps to its role
  const int warp = static_cast<int>(threadIdx.x) / 32;
  if (warp < Design::kComputeWarps)
    compute_with_lag_in_l2<T, Op, kExclusive, Design>(out, layout, stages, load_stages, buffers, lag, control, ring, status, trace, dog);
  else if (warp == Design::kComputeWarps) produce<T, Op, Design>(in, layout, stages, load_stages, control, ticket, dog);
  else if (warp <= Design::kComputeWarps + Design::kLookBackWarps)
    look_back_warp<T, Op, Design>(status, Design::kLagSlots, warp - Design::kComputeWarps - 1, control, ring.tile_of_slot, trace, dog);
  else reread_lagging_tiles<T, Op, Design>(in, layout, buffers, control, ring, dog);
}

#endif  // SG_CH12_DEVICE_CODE

template <typename T, typename Op, bool kExclusive, typename Design>
__global__ void __launch_bounds__(Design::kBlockThreads, Design::kBlocksPerSm)
    warp_specialized_scan_kernel(const T* __restrict__ in, T* __restrict__ out, Layout layout, int stage_count, int lag,
                                 StatusOf<T, Design> status, PersistentTicket ticket, Trace* trace, sg::Watchdog dog) {
#if SG_CH12_DEVICE_CODE
  __shared__ ControlOf<T, Design> control;
  extern __shared__ __align__(128) unsigned char stage_memory[];
  T* stages = reinterpret_cast<T*>(stage_memory);
  if (Design::kTrace && threadIdx.x == 0 && blockIdx.x < Trace::kTimelineBlocks) trace->started_ns[blockIdx.x] = sg::global_time_ns();
  if constexpr (Design::kScanBuffers > 0) {
    __shared__ LagRing ring;
    run_with_lag_in_l2<T, Op, kExclusive, Design>(in, out, layout, stages, stage_count, lag, control, ring, status, ticket, trace, dog);
  } else {
    PairControl<T>* pair = nullptr;  // (ClusterPairsOf)
    if constexpr (Design::kClusterPairs) {
      __shared__ PairControl<T> pair_control;
      pair = &pair_control;
    }
    if (threadIdx.x == 0) {
      for (int s = 0; s < stage_count; ++s) {
        init_mbarrier(&control.full[s], Design::kFullArrivals);
        init_mbarrier(&control.empty[s], kStageFreers<Design>);
        init_mbarrier(&control.reduced[s], 1);
        init_mbarrier(&control.resolved[s], 1);
        if constexpr (Design::kClusterPairs) {
          init_mbarrier(&pair->partner_reduced[s], 1);
        }
      }
      if constexpr (Design::kDrainToOwnTiles) init_mbarrier(&control.lag_resolved, 1);
      fence_mbarrier_init();
    }
    // the last block-wide barrier: from here on each warp keeps to its role (with pairs, the
    // cluster's: the other block's barriers are set up before anyone arrives on them)
    if constexpr (Design::kClusterPairs) cluster_sync();
    else __syncthreads();
    const int warp = static_cast<int>(threadIdx.x) / 32;
    if (warp < Design::kComputeWarps) compute<T, Op, kExclusive, Design>(out, layout, stages, stage_count, lag, control, status, trace, dog, pair);
    else if (warp == Design::kComputeWarps) produce<T, Op, Design>(in, layout, stages, stage_count, control, ticket, dog);
    else if constexpr (Design::kRunStatus) look_back_runs<T, Op, Design>(status, stage_count, warp - Design::kComputeWarps - 1, control, trace, dog);
    else if constexpr (Design::kClusterPairs) {
      look_back_pairs<T, Op, Design>(status, layout.tiles, stage_count, warp - Design::kComputeWarps - 1, control, *pair, trace, dog);
    }
    else if (Design::kPrefixWarp && warp > Design::kComputeWarps + Design::kLookBackWarps) {
      if constexpr (Design::kPrefixWarp)
        if (blockIdx.x == 0) prefix_warp<T, Op, Design>(status, layout.tiles, trace, dog);  // the other blocks' prefix warps have nothing to do
    } else if (Design::kLookBackWarp) look_back_warp<T, Op, Design>(status, stage_count, warp - Design::kComputeWarps - 1, control, control.tile_of, trace, dog);
    // (pairs) neither block leaves while the other may still write into its shared memory
    if constexpr (Design::kClusterPairs) cluster_sync();
  }
#else
  (void)in, (void)out, (void)layout, (void)stage_count, (void)lag, (void)status, (void)ticket, (void)trace, (void)dog;
#endif
}

// ---- the host side: geometry, the sm_90 check, the launch -------------------------------------

// What the launch geometry is derived from, read once per GPU.
struct DeviceLimits {
  int major = 0;
  int sm_count = 0;
  std::size_t shared_bytes_per_sm = 0;            // the SM's shared memory, for all its blocks
  std::size_t shared_bytes_per_block_optin = 0;   // the most one block may ask for
};
inline DeviceLimits device_limits(int device) {
  DeviceLimits limits;
  int value = 0;
  SG_CUDA(cudaDeviceGetAttribute(&limits.major, cudaDevAttrComputeCapabilityMajor, device));
  SG_CUDA(cudaDeviceGetAttribute(&limits.sm_count, cudaDevAttrMultiProcessorCount, device));
  SG_CUDA(cudaDeviceGetAttribute(&value, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
  limits.shared_bytes_per_sm = static_cast<std::size_t>(value);
  SG_CUDA(cudaDeviceGetAttribute(&value, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  limits.shared_bytes_per_block_optin = static_cast<std::size_t>(value);
  return limits;
}

// Stages, lag and blocks per SM of one launch. The stages a block holds at once: L + 1 reduced
// and waiting for their scan (the one just reduced included), one whose bulk store is still
// reading it, and the rest loading: S - L - 2 tiles of bytes in flight.
struct Geometry {
  int stages;
  int lag;
  int blocks_per_sm;
};

// Steps 2-4: a fixed ring of 4 stages (64 KiB), lag 1, one block per SM.
template <typename T>
Geometry fixed_geometry(const DeviceLimits&) {
  return {4, 1, 1};
}

// Step 5: two blocks per SM, each with as many stages as half the SM's shared memory holds
// (less the block's static shared memory and the 1 KiB the driver reserves per block), and a
// lag of half the stages.
//   two blocks   one block's compute warps move in lockstep through barriers and dependent
//                shuffles: about a tile's worth of latency per tile. A second block on the SM
//                computes while the first waits (the sweep: one block per SM with 13 stages
//                is slower on both GPUs).
//   stages       a stage waiting for its bytes is what keeps DRAM busy (Little's law, README);
//                the stages being reduced, waiting for their prefix, or stored keep none.
template <typename T, typename Design>
int stages_that_fit(const DeviceLimits& device, int blocks_per_sm) {
  const std::size_t control = sizeof(ControlOf<T, Design>);
  const std::size_t per_block = std::min(device.shared_bytes_per_sm / blocks_per_sm - 1024 - control, device.shared_bytes_per_block_optin - control);
  return std::max(4, std::min(static_cast<int>(per_block / kTileBytes<Design>), kMaxStages));
}
template <typename T>
Geometry device_geometry(const DeviceLimits& device) {
  constexpr int kBlocksPerSm = 2;
  const int stages = stages_that_fit<T, BulkStores>(device, kBlocksPerSm);
  return {stages, std::max(1, stages / 2), kBlocksPerSm};
}

// Step 10: one block per SM, with twice the compute warps (16), which compute as step 5's two
// blocks of 8 did, and as many 32 KiB stages as the whole SM's shared memory holds (7 on both
// GPUs); a lag that leaves two stages loading, as step 6's geometry does (six stages, a lag of
// three): L = S - 3, so 4. (H200, step 10 dealt, a development build: with a lag of 3, 1.09x /
// 1.03x copy at 2^26 / 2^28; of 5, 1.17 / 1.11; of 4, 1.08 / 1.01-1.02.)
template <typename T>
Geometry whole_sm_geometry(const DeviceLimits& device) {
  const int stages = stages_that_fit<T, WholeSm<BulkStores>>(device, 1);
  return {stages, std::max(1, stages - 3), 1};
}

// The sweep's lag in the L2: step 5's stages and blocks per SM, with a lag of kLag tiles, which
// holds no stages there.
template <typename T, int kLag>
Geometry device_geometry_with_lag(const DeviceLimits& device) {
  Geometry geometry = device_geometry<T>(device);
  geometry.lag = kLag;
  return geometry;
}

// A launch's geometry and grid on one GPU, worked out once (and the kernel's shared-memory
// limit raised once). bulk_copies: the GPU has them (sm_90 on) and the kernel was compiled
// for it; otherwise the launcher falls back to chapter 09's v4, which computes the same scan.
struct Launch {
  bool bulk_copies;
  Geometry geometry;
  unsigned resident_blocks;
};

// (ClusterPairsOf) a launch in clusters of two blocks; `attribute` holds the cluster's shape.
inline cudaLaunchConfig_t pair_launch_config(unsigned grid, int threads, std::size_t shared_bytes, cudaStream_t stream, cudaLaunchAttribute& attribute) {
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = 2;
  attribute.val.clusterDim.y = 1;
  attribute.val.clusterDim.z = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(static_cast<unsigned>(threads));
  config.dynamicSmemBytes = shared_bytes;
  config.stream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return config;
}

// lag_in_stages: false for the sweep's lag in the L2, whose lag holds no stages.
template <typename T, typename Design, typename Kernel>
Launch plan_launch(Kernel kernel, Geometry (*geometry_of)(const DeviceLimits&), bool lag_in_stages = true) {
  const int threads = Design::kBlockThreads;
  const int device = sg::current_device();
  const DeviceLimits limits = device_limits(device);
  cudaFuncAttributes attributes{};
  SG_CUDA(cudaFuncGetAttributes(&attributes, kernel));
  Launch launch{};
  launch.bulk_copies = limits.major >= 9 && attributes.ptxVersion >= 90 && attributes.binaryVersion >= 90;
  if (!launch.bulk_copies) return launch;
  launch.geometry = geometry_of(limits);
  if (lag_in_stages && launch.geometry.stages < launch.geometry.lag + 2)  // L + 1 stages waiting for their scan, one loading
    throw std::invalid_argument("chapter 12: " + std::to_string(launch.geometry.stages) + " stages cannot hold a lag of " + std::to_string(launch.geometry.lag));
  if (Design::kWarpPrefixSlots > 0 && (launch.geometry.stages > Design::kWarpPrefixSlots || launch.geometry.lag < 1))
    throw std::invalid_argument("chapter 12: the warps' prefixes are kept for " + std::to_string(Design::kWarpPrefixSlots) +
                                " stages, with a lag of at least 1 (this GPU: " + std::to_string(launch.geometry.stages) + " stages)");
  launch.resident_blocks = static_cast<unsigned>(limits.sm_count * launch.geometry.blocks_per_sm);
  // several launchers share one kernel with different rings: allow the largest a block may have
  const int most = static_cast<int>(limits.shared_bytes_per_block_optin - attributes.sharedSizeBytes);
  if (launch.geometry.stages * kTileBytes<Design> > most) throw std::invalid_argument("chapter 12: a ring of " + std::to_string(launch.geometry.stages) + " stages does not fit in shared memory");
  SG_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, most));
  // tiles are dealt round-robin: every block of the grid must be resident at once
  int fits = 0;
  SG_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fits, kernel, threads, launch.geometry.stages * kTileBytes<Design>));
  if (fits < launch.geometry.blocks_per_sm)
    throw std::invalid_argument("chapter 12: " + std::to_string(launch.geometry.blocks_per_sm) + " blocks per SM of " +
                                std::to_string(launch.geometry.stages) + " stages do not fit on this GPU (" + std::to_string(fits) + " do)");
  if constexpr (Design::kClusterPairs) {
    // a cluster's two blocks run on two SMs of one GPC: how many pairs the GPU holds at once
    cudaLaunchAttribute pair_attribute{};
    const cudaLaunchConfig_t config = pair_launch_config(2u * limits.sm_count, threads, launch.geometry.stages * kTileBytes<Design>, nullptr, pair_attribute);
    int clusters = 0;
    SG_CUDA(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config));
    if (clusters < 1) throw std::invalid_argument("chapter 12: no cluster of two blocks of " + std::to_string(launch.geometry.stages) + " stages fits on this GPU");
    launch.resident_blocks = std::min(launch.resident_blocks, 2u * static_cast<unsigned>(clusters));
  }
  return launch;
}

// trace: where a traced Design sums its timings (main.cu --trace); nullptr otherwise.
template <typename T, typename Op, bool kExclusive, typename Design, Geometry (*kGeometry)(const DeviceLimits&)>
void launch_warp_specialized(const T* in, T* out, std::size_t n, cudaStream_t stream, Trace* trace) {
  if (n == 0) return;
  constexpr auto kernel = warp_specialized_scan_kernel<T, Op, kExclusive, Design>;
  static std::map<int, Launch> per_device;
  const int device = sg::current_device();
  auto found = per_device.find(device);
  if (found == per_device.end())
    found = per_device.emplace(device, plan_launch<T, Design>(kernel, kGeometry, Design::kScanBuffers == 0)).first;
  const Launch& launch = found->second;
  if (!launch.bulk_copies) return ch09::tuned_scan<T, Op, kExclusive>(in, out, n, stream);
  if (Design::kScanBuffers > 0) {
    // two stages load at least; a slot is reused Q tiles on, after its tile's scan (L later) and
    // after the look-back warps that wait at the W - 1 slots past the last tile were told to stop
    if (launch.geometry.stages < Design::kScanBuffers + 2 || Design::kLagSlots < launch.geometry.lag + Design::kLookBackWarps)
      throw std::invalid_argument("chapter 12: the lag in the L2 needs " + std::to_string(Design::kScanBuffers + 2) + " stages and " +
                                  std::to_string(launch.geometry.lag + Design::kLookBackWarps) + " slots (this GPU: " +
                                  std::to_string(launch.geometry.stages) + " stages; " + std::to_string(Design::kLagSlots) + " slots)");
  }
  if (Design::kRunStatus) {
    // a run is resolved once its K tiles are reduced, and scanned L tiles after: L >= K - 1; the
    // compute warps stop the look-back warps at the K x W positions after the last tile
    constexpr int kRun = Design::kTilesPerLookBack, kRunsAtOnce = kRun * Design::kLookBackWarps;
    if (launch.geometry.lag < kRun - 1 || launch.geometry.stages < kRunsAtOnce)
      throw std::invalid_argument("chapter 12: runs of " + std::to_string(kRun) + " tiles need a lag of at least " + std::to_string(kRun - 1) +
                                  " and " + std::to_string(kRunsAtOnce) + " stages (this GPU: lag " + std::to_string(launch.geometry.lag) + ", " +
                                  std::to_string(launch.geometry.stages) + " stages)");
  }

  Layout layout{};
  layout.n = n;
  layout.shift = (reinterpret_cast<std::uintptr_t>(in) % 16) / sizeof(T);
  layout.tiles = (n + layout.shift + kTileItems<T, Design> - 1) / kTileItems<T, Design>;
  layout.same_alignment = reinterpret_cast<std::uintptr_t>(in) % 16 == reinterpret_cast<std::uintptr_t>(out) % 16;
  // (its ticket: the sweep's and the diagnostics' tiles by ticket only)
  const ch09::EpochLease lease = ch09::lease_epoch_words<sizeof(ch08::PackedWord<T>)>(layout.tiles * kStatusStride<T, Design>, stream);
  StatusOf<T, Design> status{};
  status.words = static_cast<ch08::PackedWord<T>*>(lease.words);
  status.epoch = lease.epoch;
  constexpr int K = Design::kTilesPerLookBack;  // a block takes runs of K tiles
  const unsigned long long runs = (layout.tiles + K - 1) / K;
  const unsigned grid = persistent_grid(runs, launch.resident_blocks);
  // the tickets: every run (tiles by ticket), or the tail's tiles, numbered from the first one not dealt
  const unsigned long long tickets = Design::kTicketTailRounds > 0 ? layout.tiles - dealt_tiles(layout.tiles, grid, Design::kTicketTailRounds) : runs;
  const std::size_t shared_bytes = launch.geometry.stages * kTileBytes<Design>;
  if constexpr (Design::kClusterPairs) {
    // whole clusters: a pair of blocks per pair of tiles, up to the pairs resident at once (or the limit's)
    unsigned pairs = persistent_grid((layout.tiles + 1) / 2, launch.resident_blocks / 2);
    if (grid_limit() > 0) pairs = std::max(1u, std::min(pairs, grid_limit() / 2));
    cudaLaunchAttribute pair_attribute{};
    const cudaLaunchConfig_t config = pair_launch_config(2 * pairs, Design::kBlockThreads, shared_bytes, stream, pair_attribute);
    SG_CUDA(cudaLaunchKernelEx(&config, kernel, in, out, layout, launch.geometry.stages, launch.geometry.lag, status,
                               PersistentTicket{lease.ticket, tickets}, trace, sg::watchdog()));
  } else {
    kernel<<<grid, Design::kBlockThreads, shared_bytes, stream>>>(in, out, layout, launch.geometry.stages, launch.geometry.lag, status,
                                                                  PersistentTicket{lease.ticket, tickets}, trace, sg::watchdog());
  }
  SG_CHECK_LAUNCH();
}

// The launcher every variant has: device input, device output, n, stream.
template <typename T, typename Op, bool kExclusive, typename Design, Geometry (*kGeometry)(const DeviceLimits&)>
void warp_specialized_scan(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  static_assert(!Design::kTrace, "a traced launch needs somewhere to put its timings");
  launch_warp_specialized<T, Op, kExclusive, Design, kGeometry>(in, out, n, stream, nullptr);
}

// Step 11: the block's shape chosen by the size of the launch. Step 10's one block per SM with
// 32 KiB tiles halves the look-backs, but a launch of it costs more at its start and end (a larger
// first tile to land, a lag of four 32 KiB tiles to drain): below some tiles per SM, step 9's two
// blocks of 16 KiB tiles per SM are faster. The crossover is counted in rounds of step 10's tiles,
// one per SM each, so that it follows the GPU's size: 26-31 rounds on an H100 and 37-44 on an
// H200 (README: step 11); kWholeSmRounds lies between, where either shape is within 0.6% of the
// other.
inline constexpr std::size_t kWholeSmRounds = 36;

template <typename T>
bool whole_sm_pays(std::size_t n, std::size_t rounds = kWholeSmRounds) {
  static std::map<int, int> sm_count_of;
  const int device = sg::current_device();
  auto found = sm_count_of.find(device);
  if (found == sm_count_of.end()) found = sm_count_of.emplace(device, device_limits(device).sm_count).first;
  return n / kTileItems<T, WholeSmTicketTail> >= rounds * static_cast<std::size_t>(found->second);
}

template <typename T, typename Op, bool kExclusive, typename ManyRounds = WholeSmTicketTail, std::size_t kRounds = kWholeSmRounds>
void shape_by_size_scan(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  if (whole_sm_pays<T>(n, kRounds)) warp_specialized_scan<T, Op, kExclusive, ManyRounds, whole_sm_geometry<T>>(in, out, n, stream);
  else warp_specialized_scan<T, Op, kExclusive, SectorStatus, device_geometry<T>>(in, out, n, stream);
}

// Step 12: step 11 with step 10's kernel scanning without block barriers. Two blocks per SM gain
// nothing from it (one block computes while the other waits at a barrier: the sweep's
// sector_status/scan_without_block_barriers runs as step 9 does), one block per SM does, at
// every size: from about 9 rounds of 32 KiB tiles per SM up it is level with step 9 or ahead, and
// from about 12 rounds up ahead or within 1.6%, on both GPUs (README: step 12). Step 12 runs one
// block per SM from kBarrierFreeRounds up (12: 13.0M int32 on 132 SMs).
using SectorStatusBarrierFree = WarpPrefixesFromTheReduce<SectorStatus>;  // (the sweep)
using WholeSmBarrierFree = WarpPrefixesFromTheReduce<WholeSmTicketTail>;
using SectorStatusWarpStores = WarpStores<SectorStatusBarrierFree>;  // (the sweep)
using WholeSmWarpStores = WarpStores<WholeSmBarrierFree>;            // (the sweep)
// (the sweep) step 12's kernel with its last 8 rounds of tiles drawn by ticket instead of 2, so
// that the blocks' ends come closer together (experiments.md: step 12's knobs)
using WholeSmBarrierFreeTicketTail8 = WarpPrefixesFromTheReduce<TicketTail<8, WholeSm<SectorStatus>>>;
inline constexpr std::size_t kBarrierFreeRounds = 12;
template <typename T, typename Op, bool kExclusive>
void barrier_free_scan(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  shape_by_size_scan<T, Op, kExclusive, WholeSmBarrierFree, kBarrierFreeRounds>(in, out, n, stream);
}
// (the sweep and a diagnostic) step 12's kernel, and step 9's, with each tile scanned alone
// when it lands (ScanWhenLandedOf; experiments.md: the tile scanned when it lands)
using SectorStatusScanWhenLanded = ScanWhenLandedOf<SectorStatus>;
using WholeSmScanWhenLanded = ScanWhenLandedOf<WholeSmTicketTail>;
using WholeSmScanWhenLandedWarpStores = WarpStores<WholeSmScanWhenLanded>;
using WholeSmScanWhenLandedFusedEnd = FusedEndOf<WholeSmScanWhenLanded>;  // (the sweep) ... the lag's tiles stored together at the end
// (the sweep) step 12's kernel whose first lap asks the L2 for X tiles of the second lap too
template <int kTiles>
using WholeSmBarrierFreeFirstLap = WarpPrefixesFromTheReduce<FirstLapPrefetchOf<kTiles, WholeSmTicketTail>>;
// The sweep: a design whose lag starts at 1 and grows by one every kTilesPerStep tiles of the
// block up to L. The trace of step 12's start (H100, 2^26, median block): the first tile lands at
// 4.4 us, but the first store is issued at 17.2 us, after the lag's five reduces, and by the time
// a ring's worth of tiles is scanned (31.2 us) the compute warps have waited 1.3 us for prefixes
// and 10.8 us for loads: the first lap lands at once, its stages free only once the lag is full,
// and the DRAM idles meanwhile (experiments.md: where a launch's DRAM time goes). The question:
// does a short lag at the start free the first stages sooner? No: the median block's first store
// comes no sooner, its compute warps wait for the first prefixes instead (9.5 us against 1.4),
// and the scan is slower at every size.
template <int kTilesPerStep, typename Base>
struct LagGrowingAtTheStart : Base {
  static_assert(Base::kLookBackWarp && Base::kScanBuffers == 0 && Base::kEndLag == 0 && !Base::kRunStatus && !Base::kDrainLooksBack,
                "look-back warps, the lag in the stages, no other change of the lag");
  static constexpr int kStartLagStep = kTilesPerStep;
};
// (the sweep) step 12's kernel whose producer asks for X tiles at first and for the rest of the
// ring's first lap once they have landed (FirstLoadsAloneOf); and with that, a lag of 1 at the
// start growing by one every 2 tiles. None is faster: the first tiles land no sooner, and the
// lag's last tile still lands at the end of the first lap's fill (experiments.md: the first
// tiles alone)
template <int kLoads>
using WholeSmBarrierFreeFirstLoadsAlone = WarpPrefixesFromTheReduce<FirstLoadsAloneOf<kLoads, WholeSmTicketTail>>;
using WholeSmBarrierFreeFirstTileAloneLagGrowing = WarpPrefixesFromTheReduce<LagGrowingAtTheStart<2, FirstLoadsAloneOf<1, WholeSmTicketTail>>>;
// (the sweep) step 12's kernel asking the L2 for D tiles of the second lap once the first lap's
// tile W has landed (SecondLapPrefetchOf): level with 2 tiles, slower with 4 (the dip comes later)
template <int kAfterTile, int kTiles>
using WholeSmBarrierFreeSecondLap = WarpPrefixesFromTheReduce<SecondLapPrefetchOf<kAfterTile, kTiles, WholeSmTicketTail>>;
// (the sweep) step 12's kernel whose look-back warps publish the P of every tile they passed over
// in their nearest 4 windows (PublishPassedTiles). Traced at 2^26 on an H100, step 12's look-back
// takes 5.3 us: 2.27 windows and 1.53 repolls of 1.4 us each, with its two warps 91% busy, and a
// block's last prefix comes about 5 us after its last aggregate: the end waits for that queue.
// Step 8's status words shared their lines, and the extra stores slowed every look; step 12's
// sit a sector apart. Slower still: the look-backs walk about as far (2.17 windows against 2.23),
// and every look takes longer (1.51 us against 1.37).
using WholeSmBarrierFreePublishPassed = WarpPrefixesFromTheReduce<PublishPassedTiles<4, WholeSmTicketTail>>;
// Step 13: step 12 with the one-block-per-SM kernel's compute warps keeping each thread's items
// in the order read from the stage (ItemsAsLaidOf; why, in ItemsAsLaid above): about 1% faster
// at 2^26 on an H200 (README: step 13). Below kBarrierFreeRounds it runs step 9's kernel, as
// step 12 does.
using WholeSmItemsAsLaid = ItemsAsLaidOf<WholeSmBarrierFree>;
template <typename T, typename Op, bool kExclusive>
void items_as_laid_scan(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  shape_by_size_scan<T, Op, kExclusive, WholeSmItemsAsLaid, kBarrierFreeRounds>(in, out, n, stream);
}
// (the sweep) ... and with each compute warp bulk-storing its own part of a tile (no barrier of the
// block before a store), or with the lag's stores not waited for one by one once the tiles run out:
// with the compute warps' instructions cut, are the barrier and the store waits what is left?
using WholeSmItemsAsLaidWarpStores = WarpStores<WholeSmItemsAsLaid>;
// (the sweep) ... with the tiles of its last R rounds scanned alone when they land, so that after
// each of the lag's prefixes at the end only a map and a store are left
template <int kRounds>
using WholeSmItemsAsLaidLastRoundsScanned = LastRoundsScannedWhenLandedOf<kRounds, WholeSmItemsAsLaid>;
using WholeSmItemsAsLaidWarpStoresScannedWhenLanded = LastRoundsScannedWhenLandedOf<kEveryRound, WholeSmItemsAsLaidWarpStores>;
using WholeSmItemsAsLaidEndWithoutStoreWaits = ItemsAsLaidOf<WarpPrefixesFromTheReduce<EndWithoutStoreWaits<WholeSmTicketTail>>>;
// (the sweep) ... with three look-back warps (more polls of the same lines: 1.08x copy at 2^26 on
// an H200 where step 13 ran at 1.05), or status words 16 bytes apart (two to a sector: 1.06)
using WholeSmItemsAsLaid3LookBackWarps = ItemsAsLaidOf<WarpPrefixesFromTheReduce<TicketTail<2, WholeSm<PrefetchAhead<1, Spread<3, 32>>>>>>;
using WholeSmItemsAsLaid16BytesPerStatus = ItemsAsLaidOf<WarpPrefixesFromTheReduce<TicketTail<2, WholeSm<PrefetchAhead<1, Spread<2, 16>>>>>>;
// (the sweep) ... whose look-backs re-poll only the lanes still in X, and also sleep before their
// first look or between looks at a window not yet ready (RepollWaitingOf): level with step 13 or
// slower at 2^26 on four H200s (experiments.md: step 14's look-backs). And step 9's kernel
// re-polling so.
using WholeSmItemsAsLaidRepollWaiting = RepollWaitingOf<WholeSmItemsAsLaid>;
template <unsigned kFirstLookNs, unsigned kRepollNs>
using WholeSmItemsAsLaidLookDelays = RepollWaitingOf<WholeSmItemsAsLaid, kFirstLookNs, kRepollNs>;
using SectorStatusRepollWaiting = RepollWaitingOf<SectorStatus>;
// (the sweep) ... whose look-backs take each window's total with the warp's reduction instruction
// where the operator allows (chapter 09's window_total_in_tile_order: int32 sum), not with the
// scan of the window, five shuffles in a chain. Nsight Compute's source view of step 14 at 2^26
// on an H200 puts a third of a look-back warp's samples on its own instructions rather than on its
// loads, a sixth on that scan. A look that is done sooner is not a scan that is: 1.2% slower at
// 2^26 on an H200 (1.3% at 2^28), level on an H100. Traced, each look is quicker, but a look-back
// finds a window still waiting for an aggregate twice as often, and takes longer (experiments.md:
// the look-back warp's own instructions).
template <typename Base>
struct WindowTotalsOf : Base {
  static_assert(Base::kLookBackWarp && Base::kOwnTileRounds == 0 && !Base::kPrefixWarp,
                "look-back warps resolving with the design's own WarpLookBack");
  using LookBack = ch09::WarpLookBack<0, Base::kPollDelayNs, Base::kLookBackTilesPerLane, 0, false, true>;
};
using WholeSmItemsAsLaidWindowTotals = WindowTotalsOf<WholeSmItemsAsLaid>;
// (the sweep) ... whose look-backs walk on while they wait, holding up to 2 or 4 windows
// (WalkOnLookBack): fewer looks, each longer, and look-backs no shorter (experiments.md: look-backs
// that walk on while they wait).
template <int kDepth>
using WholeSmItemsAsLaidWalkOn = WalkOnOf<WholeSmItemsAsLaid, kDepth>;
using WholeSmItemsAsLaidWarpStoresWindowTotals = WindowTotalsOf<WholeSmItemsAsLaidWarpStores>;
// (the sweep) step 13's one-block-per-SM kernel with its tiles dealt round-robin to the end (no
// tail by ticket), and the same in clusters of two blocks with a status word per pair of tiles
using WholeSmItemsAsLaidDealt = ItemsAsLaidOf<WarpPrefixesFromTheReduce<WholeSm<SectorStatus>>>;
using WholeSmItemsAsLaidClusterPairs = ClusterPairsOf<WholeSmItemsAsLaidDealt>;

// Step 14: the stores by the size. Step 13's one-block-per-SM kernel with each compute warp
// bulk-storing its own part of a tile (WarpStores: no barrier of the block before a store) is
// faster than step 9's kernel from about 2 rounds of 32 KiB tiles per SM up (once a partial last
// tile no longer costs it a slow start: fill_tile_ends), and than step 13's own kernel up to about
// 48 rounds; above that, one bulk store per tile is as fast or faster (on the H200, 16 stores of
// 2 KiB a tile cost about 0.5% from 300M elements up). So three shapes: step 9's kernel below
// kWarpStoresRounds (2.2M int32 on 132 SMs), the warp stores up to kTileStoresRounds (51.9M),
// step 13's kernel above (README: step 14).
inline constexpr std::size_t kWarpStoresRounds = 2;
inline constexpr std::size_t kTileStoresRounds = 48;
template <typename T, typename Op, bool kExclusive>
void stores_by_size_scan(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  if (whole_sm_pays<T>(n, kTileStoresRounds)) warp_specialized_scan<T, Op, kExclusive, WholeSmItemsAsLaid, whole_sm_geometry<T>>(in, out, n, stream);
  else shape_by_size_scan<T, Op, kExclusive, WholeSmItemsAsLaidWarpStores, kWarpStoresRounds>(in, out, n, stream);
}

// Step 15: the tiles scanned when they land. Step 14 whose shape from kTileStoresRounds up, step
// 13's kernel, scans every tile alone when it lands (LastRoundsScannedWhenLandedOf, R covering
// every tile): the aggregate is published as soon as step 13's reduce would, and the lag's scans
// at a block's end, one after another as their prefixes come, are each a map, op(P, x), and a
// store. On the H200 that end is what is left of a launch at 2^26 (README: step 15); below 48
// rounds step 14's shapes run unchanged (with warp stores the landing scan was slower).
using WholeSmItemsAsLaidScannedWhenLanded = LastRoundsScannedWhenLandedOf<kEveryRound, WholeSmItemsAsLaid>;
template <typename T, typename Op, bool kExclusive>
void scanned_when_landed_scan(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  if (whole_sm_pays<T>(n, kTileStoresRounds)) warp_specialized_scan<T, Op, kExclusive, WholeSmItemsAsLaidScannedWhenLanded, whole_sm_geometry<T>>(in, out, n, stream);
  else stores_by_size_scan<T, Op, kExclusive>(in, out, n, stream);
}
// (the sweep) step 12's kernel with three look-back warps taking turns instead of two: is the dip
// after the ring fills (experiments.md: where a launch's DRAM time goes) the look-backs' queue?
// No: the dip stays as deep, and the scan is no faster.
using WholeSmBarrierFree3LookBackWarps = WarpPrefixesFromTheReduce<TicketTail<2, WholeSm<PrefetchAhead<1, Spread<3, 32>>>>>;
// (the sweep) ... or with the look-backs of its first 1024 tiles (the first lap: 7 x 132) reading
// 256 status words a look instead of 32: at the start only tile 0 has a P, and a look-back that
// meets none walks back a window per look. Slower, and the dip is deeper: a look of 256 words
// costs more than the windows it saves, as in step 8's sweep
using WholeSmBarrierFreeWideFirstLooks = WarpPrefixesFromTheReduce<TicketTail<2, WholeSm<WideFirstLooks<1024, 8, SectorStatus>>>>;
// (the sweep) ... or with a lag of 1 at the start, growing by one every X tiles up to step 12's 4
template <int kTilesPerStep>
using WholeSmBarrierFreeLagGrowing = WarpPrefixesFromTheReduce<LagGrowingAtTheStart<kTilesPerStep, WholeSmTicketTail>>;

// Whether this GPU runs the warp-specialized kernel (false: the launchers run chapter 09's v4).
inline bool runs_bulk_copy_kernel() {
  return plan_launch<int, BulkStores>(warp_specialized_scan_kernel<std::int32_t, sg::Sum, false, BulkStores>, device_geometry<std::int32_t>)
      .bulk_copies;
}

}  // namespace ch12

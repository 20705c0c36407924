// Chapter 12 - the variant list, in the order of the lesson:
//   1_persistent_grid ... 15_scanned_when_landed
//                                          the ladder: each step adds one idea to the one before
//   baseline/ch09_v4/inclusive             chapter 09's tuned scan, which this chapter extends
//   baseline/cub/...                       CUB's DeviceScan in the same run
//   diagnostic/12_one_block_per_SM/...     step 12's one-block-per-SM kernel at every size, and the
//                                          same scanning each tile when it lands, or keeping each
//                                          thread's items in the order read from the stage (step
//                                          13's one-block-per-SM kernel), and that kernel scanning
//                                          its last 8 rounds of tiles when they land
//   diagnostic/14_one_block_per_SM/...     step 14's middle shape (warp stores) at every size
//   diagnostic/15_one_block_per_SM/...     step 15's one-block-per-SM kernel at every size
//   diagnostic/...                         step 6, 8 or 10 without the look-back (tile-local),
//                                          dealt round-robin or by ticket, and the tiles copied
//                                          through the stages with no scan (checked as a
//                                          copy; step 6's shape or step 10's): what the data
//                                          path can do
//   sweep/...                              int32 sums only: step 6, 7, 8, 9 or 10 with one knob changed
//                                          (blocks per SM, stages and lag, tiles per look,
//                                          sleep between looks, look-back warps, status words
//                                          packed or spread, runs of tiles, a status word per
//                                          run, stores in flight, thread loads, tiles by
//                                          ticket, tiles prefetched ahead (or half of each),
//                                          step 9's words 16 bytes apart, step 9 with the last
//                                          rounds by ticket, 64 tiles per look, the compute
//                                          warps looking back at the end (steps 9 and 10), or
//                                          its stages freed by thread 0 alone (racecheck), a
//                                          prefix warp for the whole grid (slabs, or a run of
//                                          tiles per lane), look-backs that publish the P's of
//                                          the tiles they passed, wide first looks, the lag in
//                                          the L2, step 10 with a shorter lag at the end, with
//                                          look-backs that stop at the block's own previous
//                                          tile (over every tile or the last rounds, or by the
//                                          compute warps at the end), polling from the global
//                                          state space, with no prefetch in the ring's first
//                                          lap, or with no wait for each store at the end), and
//                                          step 12's scan without block barriers in step 9's
//                                          shape and in step 10's, and the same with each
//                                          compute warp bulk-storing its own part of a tile;
//                                          step 12's kernel with three stages loading (with and
//                                          without the prefetch), its last 8 rounds by ticket, its
//                                          first lap prefetching 4 or 7 tiles more, three look-back
//                                          warps, wide looks over the first lap, or a lag growing
//                                          from 1 at the start, and step 12's kernel scanning each
//                                          tile when it lands (also with warp stores, and in step
//                                          9's shape), and step 13's one-block-per-SM kernel with
//                                          warp stores, with no wait for each store at the end,
//                                          with a lag of five, three look-back warps, status
//                                          words 16 bytes apart, look-backs re-polling only
//                                          the lanes still in X (and sleeping before a look),
//                                          or look-backs walking on while they wait (2 or 4
//                                          windows held), or scanning the tiles of its last 4
//                                          or 16 rounds alone when they land (every tile:
//                                          diagnostic/15_), or every tile with warp stores;
//                                          step 9's kernel re-polling only those lanes
#include "00_speed_of_light/cub_scan.cuh"
#include "09_decoupled_lookback/tuned.cuh"
#include "12_warp_specialized_scan/persistent.cuh"
#include "12_warp_specialized_scan/variants.cuh"
#include "12_warp_specialized_scan/warp_specialized.cuh"

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace ch12 {

// kBlocks blocks per SM, each with a ring of kStages stages and a lag of kLag: the sweep's rows.
template <int kBlocks, int kStages, int kLag>
Geometry ring(const DeviceLimits&) {
  return {kStages, kLag, kBlocks};
}

// Step 10's geometry (one block per SM, as many 32 KiB stages as fit) with kLoading stages left
// loading instead of two: a lag of S - 1 - kLoading (3 with the 7 stages of an H100 or H200).
template <typename T, int kLoading>
Geometry whole_sm_geometry_loading(const DeviceLimits& device) {
  Geometry geometry = whole_sm_geometry<T>(device);
  geometry.lag = std::max(1, geometry.stages - 1 - kLoading);
  return geometry;
}

template <typename T, typename Op>
std::vector<sg::Variant<T, Op>> Chapter::variants() {
  const auto inclusive = sg::Computes::InclusiveScan;
  const auto exclusive = sg::Computes::ExclusiveScan;
  const auto model = sg::model::read_write;
  std::vector<sg::Variant<T, Op>> variants = {
      {"1_persistent_grid", persistent_scan<T, Op, false>, inclusive, model},
      {"2_bulk_loads", warp_specialized_scan<T, Op, false, BulkLoads, fixed_geometry<T>>, inclusive, model},
      {"3_lookback_warp", warp_specialized_scan<T, Op, false, LookBackWarp, fixed_geometry<T>>, inclusive, model},
      {"4_bulk_stores", warp_specialized_scan<T, Op, false, BulkStores, fixed_geometry<T>>, inclusive, model},
      {"5_device_tuned", warp_specialized_scan<T, Op, false, BulkStores, device_geometry<T>>, inclusive, model},
      {"6_early_release/inclusive", warp_specialized_scan<T, Op, false, EarlyRelease, device_geometry<T>>, inclusive, model},
      {"6_early_release/exclusive", warp_specialized_scan<T, Op, true, EarlyRelease, device_geometry<T>>, exclusive, model},
      {"7_spread_status/inclusive", warp_specialized_scan<T, Op, false, SpreadStatus, device_geometry<T>>, inclusive, model},
      {"7_spread_status/exclusive", warp_specialized_scan<T, Op, true, SpreadStatus, device_geometry<T>>, exclusive, model},
      {"8_prefetch_next_tile/inclusive", warp_specialized_scan<T, Op, false, PrefetchNextTile, device_geometry<T>>, inclusive, model},
      {"8_prefetch_next_tile/exclusive", warp_specialized_scan<T, Op, true, PrefetchNextTile, device_geometry<T>>, exclusive, model},
      {"9_sector_status/inclusive", warp_specialized_scan<T, Op, false, SectorStatus, device_geometry<T>>, inclusive, model},
      {"9_sector_status/exclusive", warp_specialized_scan<T, Op, true, SectorStatus, device_geometry<T>>, exclusive, model},
      {"10_one_block_per_SM/inclusive", warp_specialized_scan<T, Op, false, WholeSmTicketTail, whole_sm_geometry<T>>, inclusive, model},
      {"10_one_block_per_SM/exclusive", warp_specialized_scan<T, Op, true, WholeSmTicketTail, whole_sm_geometry<T>>, exclusive, model},
      {"11_shape_by_size/inclusive", shape_by_size_scan<T, Op, false>, inclusive, model},
      {"11_shape_by_size/exclusive", shape_by_size_scan<T, Op, true>, exclusive, model},
      {"12_barrier_free_scan/inclusive", barrier_free_scan<T, Op, false>, inclusive, model},
      {"12_barrier_free_scan/exclusive", barrier_free_scan<T, Op, true>, exclusive, model},
      {"13_items_as_laid/inclusive", items_as_laid_scan<T, Op, false>, inclusive, model},
      {"13_items_as_laid/exclusive", items_as_laid_scan<T, Op, true>, exclusive, model},
      {"14_stores_by_size/inclusive", stores_by_size_scan<T, Op, false>, inclusive, model},
      {"14_stores_by_size/exclusive", stores_by_size_scan<T, Op, true>, exclusive, model},
      {"15_scanned_when_landed/inclusive", scanned_when_landed_scan<T, Op, false>, inclusive, model},
      {"15_scanned_when_landed/exclusive", scanned_when_landed_scan<T, Op, true>, exclusive, model},
      // step 12's one-block-per-SM kernel at every size (step 12 runs it from 12 rounds of tiles
      // per SM up): every element type and operator, checked at its own tile's boundaries
      {"diagnostic/12_one_block_per_SM/inclusive", warp_specialized_scan<T, Op, false, WholeSmBarrierFree, whole_sm_geometry<T>>, inclusive, model},
      {"diagnostic/12_one_block_per_SM/exclusive", warp_specialized_scan<T, Op, true, WholeSmBarrierFree, whole_sm_geometry<T>>, exclusive, model},
      // ... with each tile scanned alone when it lands and its prefix combined in a lag later
      // (ScanWhenLandedOf): every element type and operator, the non-commutative one included
      {"diagnostic/12_one_block_per_SM/scan_when_landed/inclusive", warp_specialized_scan<T, Op, false, WholeSmScanWhenLanded, whole_sm_geometry<T>>, inclusive, model},
      {"diagnostic/12_one_block_per_SM/scan_when_landed/exclusive", warp_specialized_scan<T, Op, true, WholeSmScanWhenLanded, whole_sm_geometry<T>>, exclusive, model},
      // ... with each thread's items kept in the order it read them from the stage (ItemsAsLaidOf):
      // step 13's one-block-per-SM kernel at every size (step 13 runs it from 12 rounds up)
      {"diagnostic/12_one_block_per_SM/items_as_laid/inclusive", warp_specialized_scan<T, Op, false, WholeSmItemsAsLaid, whole_sm_geometry<T>>, inclusive, model},
      {"diagnostic/12_one_block_per_SM/items_as_laid/exclusive", warp_specialized_scan<T, Op, true, WholeSmItemsAsLaid, whole_sm_geometry<T>>, exclusive, model},
      // step 14's middle shape at every size (step 14 runs it from 2 to 48 rounds of tiles per SM):
      // step 13's one-block-per-SM kernel with each warp storing its own part of a tile
      {"diagnostic/14_one_block_per_SM/warp_stores/inclusive", warp_specialized_scan<T, Op, false, WholeSmItemsAsLaidWarpStores, whole_sm_geometry<T>>, inclusive, model},
      {"diagnostic/14_one_block_per_SM/warp_stores/exclusive", warp_specialized_scan<T, Op, true, WholeSmItemsAsLaidWarpStores, whole_sm_geometry<T>>, exclusive, model},
      // step 15's one-block-per-SM kernel at every size (step 15 runs it from 48 rounds of tiles per
      // SM up): step 13's kernel scanning every tile alone when it lands
      {"diagnostic/15_one_block_per_SM/inclusive", warp_specialized_scan<T, Op, false, WholeSmItemsAsLaidScannedWhenLanded, whole_sm_geometry<T>>, inclusive, model},
      {"diagnostic/15_one_block_per_SM/exclusive", warp_specialized_scan<T, Op, true, WholeSmItemsAsLaidScannedWhenLanded, whole_sm_geometry<T>>, exclusive, model},
      // ... with its last 8 rounds of tiles scanned alone when they land (LastRoundsScannedWhenLandedOf):
      // every element type and operator, through both paths (a grid of three blocks has more rounds)
      {"diagnostic/12_one_block_per_SM/last_8_rounds_scanned_when_landed/inclusive", warp_specialized_scan<T, Op, false, WholeSmItemsAsLaidLastRoundsScanned<8>, whole_sm_geometry<T>>, inclusive, model},
      {"diagnostic/12_one_block_per_SM/last_8_rounds_scanned_when_landed/exclusive", warp_specialized_scan<T, Op, true, WholeSmItemsAsLaidLastRoundsScanned<8>, whole_sm_geometry<T>>, exclusive, model},
      {"diagnostic/6_without_lookback", warp_specialized_scan<T, Op, false, WithoutLookBack, device_geometry<T>>, inclusive, model, kTileItems<T, EarlyRelease>},
      {"diagnostic/6_without_lookback/tiles_by_ticket", warp_specialized_scan<T, Op, false, TicketedWithoutLookBack, device_geometry<T>>, inclusive, model, kTileItems<T, EarlyRelease>},
      {"diagnostic/6_without_lookback/lag=1", warp_specialized_scan<T, Op, false, WithoutLookBack, ring<2, 6, 1>>, inclusive, model, kTileItems<T, EarlyRelease>},
      {"diagnostic/copy_through_stages", warp_specialized_scan<T, Op, false, CopyThrough<>, device_geometry<T>>, sg::Computes::Copy, model},
      {"diagnostic/copy_through_stages/1_block_per_SM/13_stages", warp_specialized_scan<T, Op, false, CopyThrough<>, ring<1, 13, 1>>, sg::Computes::Copy, model},
      {"diagnostic/copy_through_stages/2_blocks_per_SM/4_stages", warp_specialized_scan<T, Op, false, CopyThrough<>, ring<2, 4, 1>>, sg::Computes::Copy, model},
      {"diagnostic/copy_through_stages/2_stores_in_flight", warp_specialized_scan<T, Op, false, CopyThrough<2>, device_geometry<T>>, sg::Computes::Copy, model},
      {"diagnostic/copy_through_stages/4_stores_in_flight", warp_specialized_scan<T, Op, false, CopyThrough<4>, device_geometry<T>>, sg::Computes::Copy, model},
      {"diagnostic/copy_through_stages/ordinary_stores", warp_specialized_scan<T, Op, false, CopyThrough<1, false>, device_geometry<T>>, sg::Computes::Copy, model},
      {"diagnostic/copy_through_stages/thread_loads", warp_specialized_scan<T, Op, false, CopyThrough<1, true, true>, device_geometry<T>>, sg::Computes::Copy, model},
      {"diagnostic/copy_through_stages/a_run_of_tiles_per_block", warp_specialized_scan<T, Op, false, CopyThrough<1, true, false, true>, device_geometry<T>>, sg::Computes::Copy, model},
      {"diagnostic/copy_through_stages/tiles_by_ticket", warp_specialized_scan<T, Op, false, CopyThrough<1, true, false, false, true>, device_geometry<T>>, sg::Computes::Copy, model},
      {"diagnostic/copy_through_stages/prefetch_next_tile", warp_specialized_scan<T, Op, false, PrefetchAhead<1, CopyThrough<>>, device_geometry<T>>, sg::Computes::Copy, model},
      {"baseline/ch09_v4/inclusive", ch09::tuned_scan<T, Op, false>, inclusive, model},
  };
  const std::vector<sg::Variant<T, Op>> cub = ch00::cub_scan_baselines<T, Op>();
  variants.insert(variants.end(), cub.begin(), cub.end());
  if constexpr (std::is_same_v<T, std::int32_t> && std::is_same_v<Op, sg::Sum>) {
    const std::vector<sg::Variant<T, Op>> sweep = {
        {"sweep/1_block_per_SM/13_stages/lag=5", warp_specialized_scan<T, Op, false, EarlyRelease, ring<1, 13, 5>>, inclusive, model},
        {"sweep/2_blocks_per_SM/6_stages/lag=1", warp_specialized_scan<T, Op, false, EarlyRelease, ring<2, 6, 1>>, inclusive, model},
        {"sweep/2_blocks_per_SM/5_stages/lag=2", warp_specialized_scan<T, Op, false, EarlyRelease, ring<2, 5, 2>>, inclusive, model},
        {"sweep/2_blocks_per_SM/6_stages/lag=2", warp_specialized_scan<T, Op, false, EarlyRelease, ring<2, 6, 2>>, inclusive, model},
        {"sweep/2_blocks_per_SM/6_stages/lag=4", warp_specialized_scan<T, Op, false, EarlyRelease, ring<2, 6, 4>>, inclusive, model},
        {"sweep/64_tiles_per_look", warp_specialized_scan<T, Op, false, Design<1, true, true, 1, 1, 2>, device_geometry<T>>, inclusive, model},
        {"sweep/128_tiles_per_look", warp_specialized_scan<T, Op, false, Design<1, true, true, 1, 1, 4>, device_geometry<T>>, inclusive, model},
        {"sweep/poll=200ns", warp_specialized_scan<T, Op, false, Design<1, true, true, 1, 1, 1, 200>, device_geometry<T>>, inclusive, model},
        {"sweep/tile_pairs", warp_specialized_scan<T, Op, false, TilePairs, device_geometry<T>>, inclusive, model},
        {"sweep/2_stores_in_flight/6_stages/lag=2", warp_specialized_scan<T, Op, false, Design<1, true, true, 2>, ring<2, 6, 2>>, inclusive, model},
        {"sweep/thread_loads", warp_specialized_scan<T, Op, false, ThreadLoads, device_geometry<T>>, inclusive, model},
        {"sweep/4_tiles_per_lookback", warp_specialized_scan<T, Op, false, Design<1, true, true, 1, 4>, device_geometry<T>>, inclusive, model},
        {"sweep/2_lookback_warps", warp_specialized_scan<T, Op, false, Design<2, true, true>, device_geometry<T>>, inclusive, model},
        {"sweep/2_lookback_warps/6_stages/lag=2", warp_specialized_scan<T, Op, false, Design<2, true, true>, ring<2, 6, 2>>, inclusive, model},
        {"sweep/2_lookback_warps/6_stages/lag=1", warp_specialized_scan<T, Op, false, Design<2, true, true>, ring<2, 6, 1>>, inclusive, model},
        {"sweep/3_lookback_warps/6_stages/lag=2", warp_specialized_scan<T, Op, false, Design<3, true, true>, ring<2, 6, 2>>, inclusive, model},
        {"sweep/tiles_by_ticket", warp_specialized_scan<T, Op, false, TicketedTiles, device_geometry<T>>, inclusive, model},
        {"sweep/7_spread_status/1_lookback_warp", warp_specialized_scan<T, Op, false, Spread<1>, device_geometry<T>>, inclusive, model},
        {"sweep/7_spread_status/3_lookback_warps", warp_specialized_scan<T, Op, false, Spread<3>, device_geometry<T>>, inclusive, model},
        {"sweep/7_spread_status/tile_pairs", warp_specialized_scan<T, Op, false, Spread<1, 128, 2>, device_geometry<T>>, inclusive, model},
        {"sweep/7_spread_status/32_bytes_per_status", warp_specialized_scan<T, Op, false, Spread<2, 32>, device_geometry<T>>, inclusive, model},
        {"sweep/7_spread_status/status_per_pair", warp_specialized_scan<T, Op, false, StatusPerPair, device_geometry<T>>, inclusive, model},
        {"sweep/7_spread_status/status_per_pair/1_lookback_warp", warp_specialized_scan<T, Op, false, RunStatus<1, 2>, device_geometry<T>>, inclusive, model},
        {"sweep/7_spread_status/status_per_pair/tiles_by_ticket", warp_specialized_scan<T, Op, false, RunStatus<2, 2, true>, device_geometry<T>>, inclusive, model},
        {"sweep/7_spread_status/status_per_4_tiles", warp_specialized_scan<T, Op, false, RunStatus<1, 4>, device_geometry<T>>, inclusive, model},
        {"sweep/8_prefetch_next_tile/2_tiles_ahead", warp_specialized_scan<T, Op, false, PrefetchAhead<2, SpreadStatus>, device_geometry<T>>, inclusive, model},
        {"sweep/8_prefetch_next_tile/3_lookback_warps", warp_specialized_scan<T, Op, false, PrefetchAhead<1, Spread<3>>, device_geometry<T>>, inclusive, model},
        {"sweep/8_prefetch_next_tile/status_per_pair", warp_specialized_scan<T, Op, false, PrefetchAhead<2, StatusPerPair>, device_geometry<T>>, inclusive, model},
        {"sweep/8_prefetch_next_tile/tiles_by_ticket", warp_specialized_scan<T, Op, false, TicketsAhead<PrefetchNextTile>, device_geometry<T>>, inclusive, model},
        {"sweep/7_spread_status/tiles_by_ticket", warp_specialized_scan<T, Op, false, TicketedTilesOf<SpreadStatus>, device_geometry<T>>, inclusive, model},
        {"sweep/prefix_warp", warp_specialized_scan<T, Op, false, PrefixWarpOf<PrefetchNextTile>, device_geometry<T>>, inclusive, model},
        {"sweep/prefix_warp/packed_status", warp_specialized_scan<T, Op, false, PrefixWarpOf<PrefetchAhead<1, Design<2, true, true>>>, device_geometry<T>>, inclusive, model},
        {"sweep/prefix_warp/packed_status/poll=200ns", warp_specialized_scan<T, Op, false, PrefixWarpOf<PrefetchAhead<1, Design<2, true, true>>, 8, 200>, device_geometry<T>>, inclusive, model},
        {"sweep/prefix_warp/packed_status/16_slabs", warp_specialized_scan<T, Op, false, PrefixWarpOf<PrefetchAhead<1, Design<2, true, true>>, 16>, device_geometry<T>>, inclusive, model},
        {"sweep/prefix_warp/packed_status/8_tiles_per_lane", warp_specialized_scan<T, Op, false, PrefixWarpOf<PrefetchAhead<1, Design<2, true, true>>, 8, 0, true>, device_geometry<T>>, inclusive, model},
        {"sweep/prefix_warp/packed_status/tiles_by_ticket", warp_specialized_scan<T, Op, false, PrefixWarpOf<TicketedTilesOf<Design<2, true, true>>>, device_geometry<T>>, inclusive, model},
        {"sweep/8_prefetch_next_tile/half_of_the_tile_prefetched", warp_specialized_scan<T, Op, false, PrefetchAhead<1, SpreadStatus, 8192>, device_geometry<T>>, inclusive, model},
        {"sweep/9_sector_status/16_bytes_per_status", warp_specialized_scan<T, Op, false, PrefetchAhead<1, Spread<2, 16>>, device_geometry<T>>, inclusive, model},
        {"sweep/9_sector_status/ticket_tail/2_rounds", warp_specialized_scan<T, Op, false, TicketTail<2, SectorStatus>, device_geometry<T>>, inclusive, model},
        {"sweep/10_one_block_per_SM/dealt", warp_specialized_scan<T, Op, false, WholeSm<SectorStatus>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/9_sector_status/drain_looks_back", warp_specialized_scan<T, Op, false, DrainLooksBack<SectorStatus>, device_geometry<T>>, inclusive, model},
        {"sweep/10_one_block_per_SM/drain_looks_back", warp_specialized_scan<T, Op, false, DrainLooksBack<WholeSmTicketTail>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/10_one_block_per_SM/drain_looks_back/256_tiles_per_look", warp_specialized_scan<T, Op, false, DrainLooksBack<WholeSmTicketTail, 8>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/10_one_block_per_SM/drain_looks_to_own_tiles", warp_specialized_scan<T, Op, false, DrainLooksToOwnTiles<WholeSmTicketTail>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/9_sector_status/scan_without_block_barriers", warp_specialized_scan<T, Op, false, SectorStatusBarrierFree, device_geometry<T>>, inclusive, model},
        {"sweep/10_one_block_per_SM/scan_without_block_barriers", warp_specialized_scan<T, Op, false, WholeSmBarrierFree, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/9_sector_status/warp_stores", warp_specialized_scan<T, Op, false, SectorStatusWarpStores, device_geometry<T>>, inclusive, model},
        {"sweep/10_one_block_per_SM/warp_stores", warp_specialized_scan<T, Op, false, WholeSmWarpStores, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/3_stages_loading", warp_specialized_scan<T, Op, false, WholeSmBarrierFree, whole_sm_geometry_loading<T, 3>>, inclusive, model},
        {"sweep/12_one_block_per_SM/3_stages_loading/no_prefetch", warp_specialized_scan<T, Op, false, WarpPrefixesFromTheReduce<WholeSm<Spread<2, 32>>>, whole_sm_geometry_loading<T, 3>>, inclusive, model},
        {"sweep/12_one_block_per_SM/scan_when_landed/warp_stores", warp_specialized_scan<T, Op, false, WholeSmScanWhenLandedWarpStores, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/first_lap_prefetch=4_tiles", warp_specialized_scan<T, Op, false, WholeSmBarrierFreeFirstLap<4>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/first_lap_prefetch=7_tiles", warp_specialized_scan<T, Op, false, WholeSmBarrierFreeFirstLap<7>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/items_as_laid/warp_stores", warp_specialized_scan<T, Op, false, WholeSmItemsAsLaidWarpStores, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/items_as_laid/end_without_store_waits", warp_specialized_scan<T, Op, false, WholeSmItemsAsLaidEndWithoutStoreWaits, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/items_as_laid/1_stage_loading", warp_specialized_scan<T, Op, false, WholeSmItemsAsLaid, whole_sm_geometry_loading<T, 1>>, inclusive, model},
        {"sweep/12_one_block_per_SM/items_as_laid/16_bytes_per_status", warp_specialized_scan<T, Op, false, WholeSmItemsAsLaid16BytesPerStatus, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/items_as_laid/3_lookback_warps", warp_specialized_scan<T, Op, false, WholeSmItemsAsLaid3LookBackWarps, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/items_as_laid/repoll_waiting_only", warp_specialized_scan<T, Op, false, WholeSmItemsAsLaidRepollWaiting, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/items_as_laid/window_totals", warp_specialized_scan<T, Op, false, WholeSmItemsAsLaidWindowTotals, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/items_as_laid/walk_on_2_windows", warp_specialized_scan<T, Op, false, WholeSmItemsAsLaidWalkOn<2>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/items_as_laid/walk_on_4_windows", warp_specialized_scan<T, Op, false, WholeSmItemsAsLaidWalkOn<4>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/items_as_laid/dealt", warp_specialized_scan<T, Op, false, WholeSmItemsAsLaidDealt, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/items_as_laid/last_4_rounds_scanned_when_landed", warp_specialized_scan<T, Op, false, WholeSmItemsAsLaidLastRoundsScanned<4>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/items_as_laid/last_16_rounds_scanned_when_landed", warp_specialized_scan<T, Op, false, WholeSmItemsAsLaidLastRoundsScanned<16>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/items_as_laid/warp_stores/every_tile_scanned_when_landed", warp_specialized_scan<T, Op, false, WholeSmItemsAsLaidWarpStoresScannedWhenLanded, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/items_as_laid/cluster_pairs", warp_specialized_scan<T, Op, false, WholeSmItemsAsLaidClusterPairs, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/items_as_laid/warp_stores/window_totals", warp_specialized_scan<T, Op, false, WholeSmItemsAsLaidWarpStoresWindowTotals, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/items_as_laid/repoll_after_100ns", warp_specialized_scan<T, Op, false, WholeSmItemsAsLaidLookDelays<0, 100>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/items_as_laid/repoll_after_300ns", warp_specialized_scan<T, Op, false, WholeSmItemsAsLaidLookDelays<0, 300>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/items_as_laid/first_look_after_300ns", warp_specialized_scan<T, Op, false, WholeSmItemsAsLaidLookDelays<300, 0>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/9_sector_status/repoll_waiting_only", warp_specialized_scan<T, Op, false, SectorStatusRepollWaiting, device_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/3_lookback_warps", warp_specialized_scan<T, Op, false, WholeSmBarrierFree3LookBackWarps, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/first_1024_tiles_look_256", warp_specialized_scan<T, Op, false, WholeSmBarrierFreeWideFirstLooks, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/lag_from_1_at_the_start/every_2_tiles", warp_specialized_scan<T, Op, false, WholeSmBarrierFreeLagGrowing<2>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/lag_from_1_at_the_start/every_7_tiles", warp_specialized_scan<T, Op, false, WholeSmBarrierFreeLagGrowing<7>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/scan_when_landed/lag_stored_together", warp_specialized_scan<T, Op, false, WholeSmScanWhenLandedFusedEnd, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/publish_passed_tiles", warp_specialized_scan<T, Op, false, WholeSmBarrierFreePublishPassed, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/first_tile_alone", warp_specialized_scan<T, Op, false, WholeSmBarrierFreeFirstLoadsAlone<1>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/first_5_tiles_alone", warp_specialized_scan<T, Op, false, WholeSmBarrierFreeFirstLoadsAlone<5>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/first_tile_alone/lag_from_1_every_2_tiles", warp_specialized_scan<T, Op, false, WholeSmBarrierFreeFirstTileAloneLagGrowing, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/second_lap_prefetch/after_tile_4/2_tiles", warp_specialized_scan<T, Op, false, WholeSmBarrierFreeSecondLap<4, 2>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/second_lap_prefetch/after_tile_4/4_tiles", warp_specialized_scan<T, Op, false, WholeSmBarrierFreeSecondLap<4, 4>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/second_lap_prefetch/after_tile_1/4_tiles", warp_specialized_scan<T, Op, false, WholeSmBarrierFreeSecondLap<1, 4>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/9_sector_status/scan_when_landed", warp_specialized_scan<T, Op, false, SectorStatusScanWhenLanded, device_geometry<T>>, inclusive, model},
        {"sweep/12_one_block_per_SM/ticket_tail=8_rounds", warp_specialized_scan<T, Op, false, WholeSmBarrierFreeTicketTail8, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/10_one_block_per_SM/end_without_store_waits", warp_specialized_scan<T, Op, false, EndWithoutStoreWaits<WholeSmTicketTail>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/10_one_block_per_SM/global_polls", warp_specialized_scan<T, Op, false, GlobalPolls<WholeSmTicketTail>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/10_one_block_per_SM/no_prefetch_in_the_first_lap", warp_specialized_scan<T, Op, false, PrefetchAfterFirstLap<WholeSmTicketTail>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/10_one_block_per_SM/lag=2_over_the_last_2_rounds", warp_specialized_scan<T, Op, false, ShortLagAtTheEnd<2, 2, WholeSmTicketTail>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/10_one_block_per_SM/lag=1_over_the_last_round", warp_specialized_scan<T, Op, false, ShortLagAtTheEnd<1, 1, WholeSmTicketTail>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/10_one_block_per_SM/stop_at_own_tile", warp_specialized_scan<T, Op, false, StopAtOwnTile<kEveryRound, WholeSmTicketTail>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/10_one_block_per_SM/stop_at_own_tile/packed_status", warp_specialized_scan<T, Op, false, StopAtOwnTile<kEveryRound, WholeSmPackedTicketTail>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/10_one_block_per_SM/stop_at_own_tile/over_the_last_4_rounds", warp_specialized_scan<T, Op, false, StopAtOwnTile<4, WholeSmTicketTail>, whole_sm_geometry<T>>, inclusive, model},
        {"sweep/9_sector_status/64_tiles_per_look", warp_specialized_scan<T, Op, false, SectorStatusWideLooks, device_geometry<T>>, inclusive, model},
        {"sweep/9_sector_status/thread_0_frees_its_stages", warp_specialized_scan<T, Op, false, ThreadZeroFrees<SectorStatus>, device_geometry<T>>, inclusive, model},
        {"sweep/8_prefetch_next_tile/6_stages/lag=4", warp_specialized_scan<T, Op, false, PrefetchNextTile, ring<2, 6, 4>>, inclusive, model},
        {"sweep/8_prefetch_next_tile/first_512_tiles_look_256", warp_specialized_scan<T, Op, false, WideFirstLooks<512, 8, PrefetchNextTile>, device_geometry<T>>, inclusive, model},
        {"sweep/8_prefetch_next_tile/publish_passed_tiles", warp_specialized_scan<T, Op, false, PublishPassedTiles<4, PrefetchNextTile>, device_geometry<T>>, inclusive, model},
        {"sweep/8_prefetch_next_tile/publish_passed_tiles/packed_status", warp_specialized_scan<T, Op, false, PublishPassedTiles<4, PrefetchAhead<1, Design<2, true, true>>>, device_geometry<T>>, inclusive, model},
        {"sweep/lag_in_L2/lag=3", warp_specialized_scan<T, Op, false, LagInL2<2, 16, false, PrefetchNextTile>, device_geometry_with_lag<T, 3>>, inclusive, model},
        {"sweep/lag_in_L2/lag=5", warp_specialized_scan<T, Op, false, LagInL2<2, 16, false, PrefetchNextTile>, device_geometry_with_lag<T, 5>>, inclusive, model},
        {"sweep/lag_in_L2/L2_hints/lag=5", warp_specialized_scan<T, Op, false, LagInL2<2, 16, true, PrefetchNextTile>, device_geometry_with_lag<T, 5>>, inclusive, model},
        {"sweep/lag_in_L2/tiles_by_ticket/lag=5", warp_specialized_scan<T, Op, false, TicketsAhead<LagInL2<2, 16, false, PrefetchNextTile>>, device_geometry_with_lag<T, 5>>, inclusive, model},
        // (int32 sums only, to keep the build small) step 8's data path without the look-back
        {"diagnostic/8_without_lookback", warp_specialized_scan<T, Op, false, WithoutLookBackOf<PrefetchNextTile>, device_geometry<T>>, inclusive, model, kTileItems<T, EarlyRelease>},
        {"diagnostic/8_without_lookback/tiles_by_ticket", warp_specialized_scan<T, Op, false, TicketsAhead<WithoutLookBackOf<PrefetchNextTile>>, device_geometry<T>>, inclusive, model, kTileItems<T, EarlyRelease>},
        // step 10's shape (one block of 16 compute warps per SM, 32 KiB tiles): its data path
        // without the look-back, and its stages with no scan at all, by ticket or dealt with the
        // prefetch: what that shape streams at before any look-back, as the rows above are for
        // steps 6 and 8
        {"diagnostic/10_without_lookback", warp_specialized_scan<T, Op, false, WithoutLookBackOf<WholeSmTicketTail>, whole_sm_geometry<T>>, inclusive, model, kTileItems<T, WholeSmTicketTail>},
        {"diagnostic/10_copy_through_stages/tiles_by_ticket", warp_specialized_scan<T, Op, false, WholeSm<CopyThrough<1, true, false, false, true>>, whole_sm_geometry<T>>, sg::Computes::Copy, model},
        {"diagnostic/10_copy_through_stages/prefetch_next_tile", warp_specialized_scan<T, Op, false, WholeSm<PrefetchAhead<1, CopyThrough<>>>, whole_sm_geometry<T>>, sg::Computes::Copy, model},
    };
    variants.insert(variants.end(), sweep.begin(), sweep.end());
  }
  return variants;
}

}  // namespace ch12

SG_INSTANTIATE_VARIANTS(ch12::Chapter)
SG_INSTANTIATE_NONCOMMUTATIVE(ch12::Chapter)

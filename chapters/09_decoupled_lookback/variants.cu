// Chapter 09 - the variant list, in the order of the lesson:
//   v1 .. v3              the versions of lookback.cuh (chapter 08's 512 x 64 B tiles)
//   v4/ladder/1..5        v4 as tuned.cuh builds it, one knob per step
//   v4/tuned/...          the result, inclusive and exclusive
//   diagnostic/...        v4 at CUB's tile whose look-back looks nowhere: each tile scanned on
//                         its own (tile-local, checked as such): what everything but the
//                         look-back costs
//   baseline/cub/...      CUB's DeviceScan in the same run (chapter 00's launcher; its temporary
//                         storage is allocated by the warm-up run, outside the timing)
//   v4/sweep/...          int32 sums only: one knob at a time around v4/tuned (README), and
//                         the tuned tile without its look-back
#include "00_speed_of_light/cub_scan.cuh"
#include "09_decoupled_lookback/lookback.cuh"
#include "09_decoupled_lookback/tuned.cuh"
#include "09_decoupled_lookback/variants.cuh"

#include <cstdint>
#include <type_traits>

namespace ch09 {

template <typename T, typename Op>
std::vector<sg::Variant<T, Op>> Chapter::variants() {
  using sg::Computes;
  using ch08::FencedStatus;
  using ch08::PackedStatus;
  const auto inclusive = Computes::InclusiveScan;
  const auto exclusive = Computes::ExclusiveScan;
  const auto model = sg::model::read_write;
  std::vector<sg::Variant<T, Op>> variants = {
      {"v1/one_thread_fenced", single_pass_scan<T, Op, false, FencedStatus, SingleThreadLookBack>, inclusive, model, 0,
       single_pass_scratch_bytes<T, FencedStatus>},
      {"v2/one_thread_packed", single_pass_scan<T, Op, false, PackedStatus, SingleThreadLookBack>, inclusive, model, 0,
       single_pass_scratch_bytes<T, PackedStatus>},
      {"v3/warp_packed", single_pass_scan<T, Op, false, PackedStatus, WarpLookBack<>>, inclusive, model, 0,
       single_pass_scratch_bytes<T, PackedStatus>},
      {"v4/ladder/1_one_launch", tuned_scan<T, Op, false, OneLaunch>, inclusive, model},
      {"v4/ladder/2_sleeps", tuned_scan<T, Op, false, Sleeping>, inclusive, model},
      {"v4/ladder/3_cub_tile", tuned_scan<T, Op, false, CubTile>, inclusive, model},
      {"v4/ladder/4_occupancy", tuned_scan<T, Op, false, Occupied>, inclusive, model},
      {"v4/ladder/5_l2_prefetch", tuned_scan<T, Op, false, Prefetched>, inclusive, model},
      {"v4/tuned/inclusive", tuned_scan<T, Op, false>, inclusive, model},
      {"v4/tuned/exclusive", tuned_scan<T, Op, true>, exclusive, model},
      {"diagnostic/cub_tile_without_lookback", tuned_scan<T, Op, false, CubTile, NoLookBack>, inclusive, model,
       kTunedTileItems<T, CubTile>},
  };
  const std::vector<sg::Variant<T, Op>> cub = ch00::cub_scan_baselines<T, Op>();
  variants.insert(variants.end(), cub.begin(), cub.end());
  if constexpr (std::is_same_v<T, std::int32_t> && std::is_same_v<Op, sg::Sum>) {
    // Tuned is Tuning<128, 192, 4000, 1000, 4, true, 12>; each row changes one thing
    const std::vector<sg::Variant<T, Op>> sweep = {
        {"v4/sweep/tile=128x96B,6/SM", tuned_scan<T, Op, false, Tuning<128, 96, 4000, 1000, 6, true, 12>>, inclusive, model},
        {"v4/sweep/tile=128x128B,5/SM", tuned_scan<T, Op, false, Tuning<128, 128, 4000, 1000, 5, true, 12>>, inclusive, model},
        {"v4/sweep/tile=128x256B,3/SM", tuned_scan<T, Op, false, Tuning<128, 256, 4000, 1000, 3, true, 12>>, inclusive, model},
        {"v4/sweep/tile=256x96B,2/SM", tuned_scan<T, Op, false, Tuning<256, 96, 4000, 1000, 2, true, 12>>, inclusive, model},
        {"v4/sweep/occupancy=unbounded", tuned_scan<T, Op, false, Tuning<128, 192, 4000, 1000, 1, true, 12>>, inclusive, model},
        {"v4/sweep/sleeps=0,0", tuned_scan<T, Op, false, Tuning<128, 192, 0, 0, 4, true, 12>>, inclusive, model},
        {"v4/sweep/sleeps=1245,648", tuned_scan<T, Op, false, Tuning<128, 192, 1245, 648, 4, true, 12>>, inclusive, model},
        {"v4/sweep/sleeps=2500,1200", tuned_scan<T, Op, false, Tuning<128, 192, 2500, 1200, 4, true, 12>>, inclusive, model},
        {"v4/sweep/sleeps=2500,2500", tuned_scan<T, Op, false, Tuning<128, 192, 2500, 2500, 4, true, 12>>, inclusive, model},
        {"v4/sweep/sleeps=5000,2500", tuned_scan<T, Op, false, Tuning<128, 192, 5000, 2500, 4, true, 12>>, inclusive, model},
        {"v4/sweep/prefetch=none", tuned_scan<T, Op, false, Tuning<128, 192, 4000, 1000, 4, false, 0>>, inclusive, model},
        {"v4/sweep/prefetch=own_tile", tuned_scan<T, Op, false, Tuning<128, 192, 4000, 1000, 4, true, 0>>, inclusive, model},
        {"v4/sweep/prefetch=ahead_50%", tuned_scan<T, Op, false, Tuning<128, 192, 4000, 1000, 4, true, 50>>, inclusive, model},
        {"v4/sweep/prefetch=ahead_100%", tuned_scan<T, Op, false, Tuning<128, 192, 4000, 1000, 4, true, 100>>, inclusive, model},
        {"diagnostic/tuned_without_lookback", tuned_scan<T, Op, false, Tuned, NoLookBack>, inclusive, model, kTunedTileItems<T, Tuned>},
        // the same without its L2 prefetch, and prefetching its own tile only: which part of the
        // prefetch makes the kernel without waits write more than its output (README, "Why
        // tuned_without_lookback is slower")
        {"diagnostic/tuned_without_lookback/prefetch=none", tuned_scan<T, Op, false, Tuning<128, 192, 4000, 1000, 4, false, 0>, NoLookBack>,
         inclusive, model, kTunedTileItems<T, Tuned>},
        {"diagnostic/tuned_without_lookback/prefetch=own_tile", tuned_scan<T, Op, false, Tuning<128, 192, 4000, 1000, 4, true, 0>, NoLookBack>,
         inclusive, model, kTunedTileItems<T, Tuned>},
    };
    variants.insert(variants.end(), sweep.begin(), sweep.end());
  }
  return variants;
}

}  // namespace ch09

SG_INSTANTIATE_VARIANTS(ch09::Chapter)
SG_INSTANTIATE_NONCOMMUTATIVE(ch09::Chapter)

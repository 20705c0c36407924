// Chapter 12 - the variant list, in the order of the lesson:
//   1_bulk_loads ... 5_prefetch_next_tile   the ladder (ladder.cuh): each step one idea more
//   6_one_block_per_SM/...                  the final kernel (warp_specialized.cuh)
//   baseline/ch09_v4/inclusive              chapter 09's tuned scan, which this chapter extends
//   baseline/cub/...                        CUB's DeviceScan in the same run
#include "00_speed_of_light/cub_scan.cuh"
#include "09_decoupled_lookback/tuned.cuh"
#include "12_warp_specialized_scan/variants.cuh"

namespace ch12 {

template <typename T, typename Op>
std::vector<sg::Variant<T, Op>> Chapter::variants() {
  const auto inclusive = sg::Computes::InclusiveScan;
  const auto model = sg::model::read_write;
  std::vector<sg::Variant<T, Op>> variants = {
      {"1_bulk_loads", ladder_scan<T, Op, false, 1>, inclusive, model},
      {"2_lookback_warp", ladder_scan<T, Op, false, 2>, inclusive, model},
      {"3_device_geometry", ladder_scan<T, Op, false, 3>, inclusive, model},
      {"4_sector_status", ladder_scan<T, Op, false, 4>, inclusive, model},
      {"5_prefetch_next_tile", ladder_scan<T, Op, false, 5>, inclusive, model},
      {"6_one_block_per_SM/inclusive", warp_specialized_scan<T, Op, false>, inclusive, model},
      {"6_one_block_per_SM/exclusive", warp_specialized_scan<T, Op, true>, sg::Computes::ExclusiveScan, model},
      {"baseline/ch09_v4/inclusive", ch09::tuned_scan<T, Op, false>, inclusive, model},
  };
  const std::vector<sg::Variant<T, Op>> cub = ch00::cub_scan_baselines<T, Op>();
  variants.insert(variants.end(), cub.begin(), cub.end());
  return variants;
}

}  // namespace ch12

SG_INSTANTIATE_VARIANTS(ch12::Chapter)
SG_INSTANTIATE_NONCOMMUTATIVE(ch12::Chapter)

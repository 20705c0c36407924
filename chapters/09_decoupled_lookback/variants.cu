// Chapter 09 - the variant list: the four versions in order, inclusive and exclusive for the
// last, then the v4 sweep (tile geometry; sleeps before and between looks) and CUB's
// DeviceScan measured in the same run (chapter 00's launcher; its temporary storage comes from
// the scratch arena, allocated by the warm-up run, outside the timing).
#include "00_speed_of_light/cub_scan.cuh"
#include "09_decoupled_lookback/lookback.cuh"
#include "09_decoupled_lookback/tuned.cuh"
#include "09_decoupled_lookback/variants.cuh"

#include <algorithm>
#include <cstdio>

namespace ch09 {

template <typename T, typename Op>
std::vector<sg::Variant<T, Op>> Chapter::variants() {
  using sg::Computes;
  using ch08::FencedStatus;
  using ch08::PackedStatus;
  const auto inclusive = Computes::InclusiveScan;
  const auto exclusive = Computes::ExclusiveScan;
  const auto model = sg::model::read_write;
  return {
      {"v1/one_thread_fenced", single_pass_scan<T, Op, false, FencedStatus, SingleThreadLookBack>, inclusive, model, 0,
       single_pass_scratch_bytes<T, FencedStatus>},
      {"v2/one_thread_packed", single_pass_scan<T, Op, false, PackedStatus, SingleThreadLookBack>, inclusive, model, 0,
       single_pass_scratch_bytes<T, PackedStatus>},
      {"v3/warp_packed", single_pass_scan<T, Op, false, PackedStatus, WarpLookBack<>>, inclusive, model, 0,
       single_pass_scratch_bytes<T, PackedStatus>},
      {"v4/tuned/inclusive", tuned_scan<T, Op, false>, inclusive, model},
      {"v4/tuned/exclusive", tuned_scan<T, Op, true>, exclusive, model},
      // the sweep: threads x bytes per thread (no sleeps), then sleeps (ns before the first look / between looks)
      {"v4/sweep/128x96B", tuned_scan<T, Op, false, 128, 96>, inclusive, model},
      {"v4/sweep/256x32B", tuned_scan<T, Op, false, 256, 32>, inclusive, model},
      {"v4/sweep/256x64B", tuned_scan<T, Op, false, 256, 64>, inclusive, model},
      {"v4/sweep/512x32B", tuned_scan<T, Op, false, 512, 32>, inclusive, model},
      {"v4/sweep/512x64B/sleep=300,100", tuned_scan<T, Op, false, 512, 64, 300, 100>, inclusive, model},
      {"v4/sweep/512x64B/sleep=1000,300", tuned_scan<T, Op, false, 512, 64, 1000, 300>, inclusive, model},
      {"v4/sweep/128x96B/sleep=600,600", tuned_scan<T, Op, false, 128, 96, 600, 600>, inclusive, model},
      // not a scan of the array: v4 with a look-back that looks nowhere scans every tile on its own
      {"diagnostic/v4_without_lookback", tuned_scan<T, Op, false, kThreads, kBytesPerThread, 0, 0, NoLookBack>, inclusive, model,
       kTileItems<T>},
      {"baseline/cub/inclusive", ch00::cub_device_scan<T, Op, true>, inclusive, model, 0, ch00::cub_scan_scratch_bytes<T, Op, true>},
      {"baseline/cub/exclusive", ch00::cub_device_scan<T, Op, false>, exclusive, model, 0, ch00::cub_scan_scratch_bytes<T, Op, false>},
  };
}

std::size_t tile_items_of(const std::string& name, std::size_t element_bytes) {
  std::size_t threads = kThreads, bytes = kBytesPerThread;
  if (name.rfind("baseline/", 0) == 0) return 0;  // CUB's tiles are its own
  if (const std::size_t at = name.find("/sweep/"); at != std::string::npos)
    std::sscanf(name.c_str() + at + 7, "%zux%zuB", &threads, &bytes);
  return threads * std::max<std::size_t>(1, bytes / element_bytes);
}

}  // namespace ch09

SG_INSTANTIATE_VARIANTS(ch09::Chapter)
SG_INSTANTIATE_NONCOMMUTATIVE(ch09::Chapter)

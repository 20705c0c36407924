// Chapter 06 - scan-then-propagate: the variant list. The default geometry is chapter 05's
// (256 threads x 32 bytes: 2048 int32 per tile); two more tile sizes show what the tile
// changes: the number of levels and launches, not the bytes (about 4n at every tile size).
#include "06_scan_then_propagate/scan_then_propagate.cuh"
#include "06_scan_then_propagate/variants.cuh"

namespace ch06 {

template <typename T, typename Op>
std::vector<sg::Variant<T, Op>> Chapter::variants() {
  using sg::Computes;
  const auto inclusive = Computes::InclusiveScan;
  const auto exclusive = Computes::ExclusiveScan;
  return {
      {"scan_then_propagate/inclusive", scan_then_propagate<T, Op, false>, inclusive, scan_then_propagate_bytes<256, 32>, 0,
       scan_then_propagate_scratch_bytes<T>},
      {"scan_then_propagate/exclusive", scan_then_propagate<T, Op, true>, exclusive, scan_then_propagate_bytes<256, 32>, 0,
       scan_then_propagate_scratch_bytes<T>},
      {"scan_then_propagate/128x32B", scan_then_propagate<T, Op, false, 128, 32>, inclusive, scan_then_propagate_bytes<128, 32>, 0,
       scan_then_propagate_scratch_bytes<T, 128, 32>},
      {"scan_then_propagate/256x64B", scan_then_propagate<T, Op, false, 256, 64>, inclusive, scan_then_propagate_bytes<256, 64>, 0,
       scan_then_propagate_scratch_bytes<T, 256, 64>},
  };
}

}  // namespace ch06

SG_INSTANTIATE_VARIANTS(ch06::Chapter)
SG_INSTANTIATE_NONCOMMUTATIVE(ch06::Chapter)

// Chapter 08 - the chained scan: the variant list. Three correct ways to publish a tile's
// prefix at the default tile (512 threads x 64 bytes: 8192 int32), then the packed word at
// smaller tiles: fewer elements per handoff, more handoffs in the chain. The model (2n, 1.0x
// copy) ignores the chain on purpose: the gap between it and the measurement is the lesson.
#include "08_chained_scan/chained_scan.cuh"
#include "08_chained_scan/variants.cuh"

namespace ch08 {

template <typename T, typename Op>
std::vector<sg::Variant<T, Op>> Chapter::variants() {
  using sg::Computes;
  const auto inclusive = Computes::InclusiveScan;
  const auto exclusive = Computes::ExclusiveScan;
  const auto model = sg::model::read_write;
  return {
      {"chained/fenced", chained_scan<T, Op, false, FencedStatus>, inclusive, model, 0, chained_scan_scratch_bytes<T, FencedStatus>},
      {"chained/release_acquire", chained_scan<T, Op, false, ReleaseAcquireStatus>, inclusive, model, 0,
       chained_scan_scratch_bytes<T, ReleaseAcquireStatus>},
      {"chained/packed", chained_scan<T, Op, false, PackedStatus>, inclusive, model, 0, chained_scan_scratch_bytes<T, PackedStatus>},
      {"chained/packed/exclusive", chained_scan<T, Op, true, PackedStatus>, exclusive, model, 0,
       chained_scan_scratch_bytes<T, PackedStatus>},
      {"chained/packed/256x64B", chained_scan<T, Op, false, PackedStatus, 256, 64>, inclusive, model, 0,
       chained_scan_scratch_bytes<T, PackedStatus, 256, 64>},
      {"chained/packed/256x32B", chained_scan<T, Op, false, PackedStatus, 256, 32>, inclusive, model, 0,
       chained_scan_scratch_bytes<T, PackedStatus, 256, 32>},
  };
}

}  // namespace ch08

SG_INSTANTIATE_VARIANTS(ch08::Chapter)
SG_INSTANTIATE_NONCOMMUTATIVE(ch08::Chapter)

// Chapter 07 - reduce-then-scan: the variant list. The default grid is C = every block that
// fits on the GPU at once; the C=k/SM rows sweep the grid size (inclusive only); the l2 rows
// go beyond the 3n model by re-reading each chunk from the L2 cache (model: 2n of DRAM).
#include "07_reduce_then_scan/reduce_then_scan.cuh"
#include "07_reduce_then_scan/variants.cuh"

namespace ch07 {

template <typename T, typename Op>
std::vector<sg::Variant<T, Op>> Chapter::variants() {
  using sg::Computes;
  namespace model = sg::model;
  const auto inclusive = Computes::InclusiveScan;
  const auto exclusive = Computes::ExclusiveScan;
  return {
      {"reduce_then_scan/inclusive", reduce_then_scan<T, Op, false>, inclusive, model::reduce_then_scan, 0,
       reduce_then_scan_scratch_bytes<T, Op, kResident>},
      {"reduce_then_scan/exclusive", reduce_then_scan<T, Op, true>, exclusive, model::reduce_then_scan, 0,
       reduce_then_scan_scratch_bytes<T, Op, kResident>},
      {"reduce_then_scan/C=1/SM", reduce_then_scan<T, Op, false, 1>, inclusive, model::reduce_then_scan, 0,
       reduce_then_scan_scratch_bytes<T, Op, 1>},
      {"reduce_then_scan/C=2/SM", reduce_then_scan<T, Op, false, 2>, inclusive, model::reduce_then_scan, 0,
       reduce_then_scan_scratch_bytes<T, Op, 2>},
      {"reduce_then_scan/C=4/SM", reduce_then_scan<T, Op, false, 4>, inclusive, model::reduce_then_scan, 0,
       reduce_then_scan_scratch_bytes<T, Op, 4>},
      {"reduce_then_scan/C=16/SM", reduce_then_scan<T, Op, false, 16>, inclusive, model::reduce_then_scan, 0,
       reduce_then_scan_scratch_bytes<T, Op, 16>},
      {"l2_streaming/8MiB/inclusive", l2_streaming_scan<T, Op, false, 8>, inclusive, model::read_write, 0,
       l2_streaming_scratch_bytes<T, Op, 8>},
      {"l2_streaming/16MiB/inclusive", l2_streaming_scan<T, Op, false, 16>, inclusive, model::read_write, 0,
       l2_streaming_scratch_bytes<T, Op, 16>},
      {"l2_streaming/16MiB/exclusive", l2_streaming_scan<T, Op, true, 16>, exclusive, model::read_write, 0,
       l2_streaming_scratch_bytes<T, Op, 16>},
  };
}

}  // namespace ch07

SG_INSTANTIATE_VARIANTS(ch07::Chapter)
SG_INSTANTIATE_NONCOMMUTATIVE(ch07::Chapter)

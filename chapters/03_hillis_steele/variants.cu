// Chapter 03 - the variant list: every block scan, inclusive and exclusive, tile-local.
#include "03_hillis_steele/kogge_stone.cuh"
#include "03_hillis_steele/variants.cuh"

namespace ch03 {

template <typename T, typename Op>
std::vector<sg::Variant<T, Op>> Chapter::variants() {
  using sg::Computes;
  const auto inclusive = Computes::InclusiveScan;
  const auto exclusive = Computes::ExclusiveScan;
  const auto model = sg::model::read_write;  // tile-local: read n, write n
  return {
      {"two_barrier/inclusive", two_barrier<T, Op, false>, inclusive, model, kBlockThreads},
      {"two_barrier/exclusive", two_barrier<T, Op, true>, exclusive, model, kBlockThreads},
      {"double_buffer/inclusive", double_buffer<T, Op, false>, inclusive, model, kBlockThreads},
      {"double_buffer/exclusive", double_buffer<T, Op, true>, exclusive, model, kBlockThreads},
      {"reverse_accumulation/inclusive", reverse_accumulation<T, Op, false>, inclusive, model, kReverseTile},
      {"reverse_accumulation/exclusive", reverse_accumulation<T, Op, true>, exclusive, model, kReverseTile},
      {"warp_shuffle/inclusive", warp_shuffle<T, Op, false>, inclusive, model, kBlockThreads},
      {"warp_shuffle/exclusive", warp_shuffle<T, Op, true>, exclusive, model, kBlockThreads},
  };
}

}  // namespace ch03

SG_INSTANTIATE_VARIANTS(ch03::Chapter)

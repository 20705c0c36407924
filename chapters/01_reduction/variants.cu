// Chapter 01 - reduction: the variant list, in teaching order. Every variant computes
// out[0] = the reduction of all n inputs (the identity for n = 0) in two or more passes,
// never with atomics (the README explains why), so every variant works for Sum and Max and
// for every element type, and gives the same result on every run.
#include "01_reduction/fixed_grid.cuh"
#include "01_reduction/reduction.cuh"
#include "01_reduction/variants.cuh"

namespace ch01 {

template <typename T, typename Op>
std::vector<sg::Variant<T, Op>> Chapter::variants() {
  using sg::Computes;
  namespace model = sg::model;
  return {
      {"interleaved_divergent", reduce_interleaved_divergent<T, Op>, Computes::Reduce, model::read_only, 0, tree_scratch_bytes<T>},
      {"convergent", reduce_convergent<T, Op>, Computes::Reduce, model::read_only, 0, tree_scratch_bytes<T>},
      {"add_during_load", reduce_add_during_load<T, Op>, Computes::Reduce, model::read_only, 0, tree_scratch_bytes<T>},
      {"warp_shuffle", reduce_warp_shuffle<T, Op>, Computes::Reduce, model::read_only, 0, tree_scratch_bytes<T>},
      {"fixed_grid_vectorised", reduce_fixed_grid<T, Op>, Computes::Reduce, model::read_only, 0, fixed_grid_scratch_bytes<T, Op>},
  };
}

}  // namespace ch01

SG_INSTANTIATE_VARIANTS(ch01::Chapter)

// Chapter 02 - global-memory scans: the variant list. Every variant scans the whole array
// (tile 0) with Sum and Max and every element type: padding uses the identity and the
// inclusive result is formed with the operator, never by subtraction.
#include "02_global_memory_scan/blelloch_global.cuh"
#include "02_global_memory_scan/hillis_steele_global.cuh"
#include "02_global_memory_scan/model.hpp"
#include "02_global_memory_scan/variants.cuh"

namespace ch02 {

template <typename T, typename Op>
std::vector<sg::Variant<T, Op>> Chapter::variants() {
  using sg::Computes;
  return {
      {"hillis_steele/inclusive", hillis_steele_scan<T, Op, false>, Computes::InclusiveScan, hillis_steele_bytes, 0,
       hillis_steele_scratch_bytes<T>},
      {"hillis_steele/exclusive", hillis_steele_scan<T, Op, true>, Computes::ExclusiveScan, hillis_steele_bytes, 0,
       hillis_steele_scratch_bytes<T>},
      {"blelloch/inclusive", blelloch_scan<T, Op, false, ThreadPerElement>, Computes::InclusiveScan, blelloch_inclusive_bytes, 0,
       blelloch_scratch_bytes<T>},
      {"blelloch/exclusive", blelloch_scan<T, Op, true, ThreadPerElement>, Computes::ExclusiveScan, blelloch_exclusive_bytes, 0,
       blelloch_scratch_bytes<T>},
      {"blelloch_remapped/inclusive", blelloch_scan<T, Op, false, ThreadPerNode>, Computes::InclusiveScan, blelloch_inclusive_bytes,
       0, blelloch_scratch_bytes<T>},
      {"blelloch_remapped/exclusive", blelloch_scan<T, Op, true, ThreadPerNode>, Computes::ExclusiveScan, blelloch_exclusive_bytes,
       0, blelloch_scratch_bytes<T>},
  };
}

std::size_t launches_of(const std::string& name, std::size_t n) {
  if (name.rfind("hillis_steele/", 0) == 0) return hillis_steele_launches(n);
  if (name.rfind("blelloch", 0) == 0) return blelloch_launches(n);
  return 0;
}

}  // namespace ch02

SG_INSTANTIATE_VARIANTS(ch02::Chapter)

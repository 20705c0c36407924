// Chapter 00 - speed of light: the variant list. Copies do not depend on the operator;
// they are listed for every operator so the table always shows the yardstick.
#include "00_speed_of_light/copy.cuh"
#include "00_speed_of_light/cub_scan.cuh"
#include "00_speed_of_light/variants.cuh"

namespace ch00 {

template <typename T, typename Op>
std::vector<sg::Variant<T, Op>> Chapter::variants() {
  using sg::Computes;
  namespace model = sg::model;
  return {
      {"copy/one_element_per_thread", copy_one_element_per_thread<T>, Computes::Copy, model::read_write},
      {"copy/grid_stride", copy_grid_stride<T>, Computes::Copy, model::read_write},
      {"copy/vectorised_grid_stride", copy_vectorised_grid_stride<T>, Computes::Copy, model::read_write},
      {"copy/vectorised_16B", copy_vectorised<T>, Computes::Copy, model::read_write},
      {"copy/cudaMemcpy", copy_cuda_memcpy<T>, Computes::Copy, model::read_write},
      {"cub/inclusive_scan", cub_device_scan<T, Op, true>, Computes::InclusiveScan, model::read_write, 0,
       cub_scan_scratch_bytes<T, Op, true>, kCubScanMaxItems},
      {"cub/exclusive_scan", cub_device_scan<T, Op, false>, Computes::ExclusiveScan, model::read_write, 0,
       cub_scan_scratch_bytes<T, Op, false>, kCubScanMaxItems},
  };
}

}  // namespace ch00

SG_INSTANTIATE_VARIANTS(ch00::Chapter)

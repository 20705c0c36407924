// Chapter 00 - speed of light: the baseline every later chapter races, CUB's DeviceScan.
//
// CUB (part of CCCL, shipped with the CUDA Toolkit) implements the single-pass scan with
// decoupled look-back that chapter 09 builds: its time is what a production scan achieves
// on this GPU, and its "x copy" is the number the gallery's last chapters race.
//
// Model: 2n bytes (single pass: read n + write n), plus a few bytes per tile of status.
#pragma once

#include "common/check.cuh"
#include "common/device_buffer.cuh"
#include "common/operators.hpp"
#include "common/variant.cuh"

#include <cub/device/device_scan.cuh>

#include <cstddef>
#include <limits>
#include <type_traits>
#include <vector>

namespace ch00 {

// The largest n CUB's DeviceScan takes: any integer count from CCCL 3.0 (CUDA 13.0) on, an int
// before it (the CCCL of CUDA 12.x), where a larger n would wrap to a negative count. The CUB
// rows say so above it (their Variant::max_n) and cub_scan refuses it.
inline constexpr std::size_t kCubScanMaxItems =
    CUB_VERSION >= 300000 ? std::numeric_limits<std::size_t>::max() : static_cast<std::size_t>(std::numeric_limits<int>::max());

// CUB first asks how much temporary storage it needs (a call with a null pointer), then scans.
template <typename T, typename Op, bool kInclusive>
cudaError_t cub_scan(void* temp, std::size_t& temp_bytes, const T* in, T* out, std::size_t n, cudaStream_t stream) {
  if (n > kCubScanMaxItems) return cudaErrorInvalidValue;
  if constexpr (std::is_same_v<Op, sg::Sum>) {
    if constexpr (kInclusive) return cub::DeviceScan::InclusiveSum(temp, temp_bytes, in, out, n, stream);
    else return cub::DeviceScan::ExclusiveSum(temp, temp_bytes, in, out, n, stream);
  } else {
    if constexpr (kInclusive) return cub::DeviceScan::InclusiveScan(temp, temp_bytes, in, out, Op{}, n, stream);
    else return cub::DeviceScan::ExclusiveScan(temp, temp_bytes, in, out, Op{}, Op::template identity<T>(), n, stream);
  }
}

template <typename T, typename Op, bool kInclusive>
std::size_t cub_scan_scratch_bytes(std::size_t n) {
  std::size_t bytes = 0;
  SG_CUDA((cub_scan<T, Op, kInclusive>(nullptr, bytes, nullptr, nullptr, n, nullptr)));
  return bytes;
}

template <typename T, typename Op, bool kInclusive>
void cub_device_scan(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;  // (a null temp pointer would turn the call into a size query)
  std::size_t bytes = cub_scan_scratch_bytes<T, Op, kInclusive>(n);
  void* temp = sg::scratch_bytes(bytes);
  SG_CUDA((cub_scan<T, Op, kInclusive>(temp, bytes, in, out, n, stream)));
}

// CUB's inclusive and exclusive scans as the rows a chapter times beside its own
// ("baseline/cub/..."): temporary storage from the scratch region, CUB's count limit.
template <typename T, typename Op>
std::vector<sg::Variant<T, Op>> cub_scan_baselines() {
  return {
      {"baseline/cub/inclusive", cub_device_scan<T, Op, true>, sg::Computes::InclusiveScan, sg::model::read_write, 0,
       cub_scan_scratch_bytes<T, Op, true>, kCubScanMaxItems},
      {"baseline/cub/exclusive", cub_device_scan<T, Op, false>, sg::Computes::ExclusiveScan, sg::model::read_write, 0,
       cub_scan_scratch_bytes<T, Op, false>, kCubScanMaxItems},
  };
}

}  // namespace ch00

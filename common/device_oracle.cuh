// common/device_oracle.cuh - inputs drawn and outputs checked on the GPU, against CUB.
//
// The CPU reference is exact and independent, but at the 2,022-size suite's volume (about
// 58 billion elements per variant) drawing inputs and scanning on one CPU core would take
// hours. So the suite draws its inputs on the GPU (the same counter-based hash as the CPU,
// inputs.hpp: the same seed gives the same values) and compares every output element with
// CUB's scan of the same input: an independent implementation, never the kernel under test.
// At the powers of two the suite also checks against the CPU reference, which checks the
// device-drawn inputs and CUB at the same time.
//
// Integers only: the comparison is exact. (Float sums round differently in every
// summation order; the CPU path's tolerance needs per-element magnitudes.)
#pragma once

#include "00_speed_of_light/cub_scan.cuh"  // CUB's DeviceScan, as chapter 00 calls it
#include "common/check.cuh"
#include "common/device_buffer.cuh"
#include "common/inputs.hpp"
#include "common/launch.cuh"
#include "common/reference.hpp"

#include <cub/device/device_reduce.cuh>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace sg {

template <typename T, typename Op>
__global__ void fill_random_kernel(T* out, std::size_t n, std::uint64_t seed, std::size_t first_index) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = random_value<T, Op>(seed, first_index + i);
}

// out[0, n) = elements first_index .. first_index + n - 1 of random_input<T, Op>(..., seed),
// drawn on the device (first_index > 0: one GPU's part of an array spread over several).
template <typename T, typename Op>
void fill_random(T* out, std::size_t n, std::uint64_t seed, cudaStream_t stream, std::size_t first_index = 0) {
  if (n == 0) return;
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>(blocks_for(n, 256), 4096));
  fill_random_kernel<T, Op><<<blocks, 256, 0, stream>>>(out, n, seed, first_index);
  SG_CHECK_LAUNCH();
}

struct DeviceComparison {
  unsigned long long mismatches;
  unsigned long long unwritten;  // mismatches still holding the poison pattern
  unsigned long long first;      // the lowest mismatching index (~0 if none)
};

template <typename T>
__global__ void compare_kernel(const T* got, const T* expected, std::size_t n, DeviceComparison* result) {
  T poison;
  unsigned char* bytes = reinterpret_cast<unsigned char*>(&poison);
  for (std::size_t b = 0; b < sizeof(T); ++b) bytes[b] = poison_byte<T>();
  unsigned long long mismatches = 0, unwritten = 0, first = ~0ull;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    if (got[i] == expected[i]) continue;
    ++mismatches;
    if (got[i] == poison) ++unwritten;
    if (i < first) first = i;
  }
  if (mismatches == 0) return;
  atomicAdd(&result->mismatches, mismatches);
  atomicAdd(&result->unwritten, unwritten);
  atomicMin(&result->first, first);
}

// The device-side check: CUB's output for each kind of result, and an exact comparison.
template <typename T, typename Op>
class DeviceOracle {
  static_assert(std::is_integral_v<T>, "the device oracle compares exactly: integer elements only");

 public:
  explicit DeviceOracle(std::size_t capacity) : expected_(std::max<std::size_t>(capacity, 1)), result_(1) {}

  // expected[0, count) = what `what` computes for in[0, n), by CUB (count = n, or 1 for a reduction).
  const T* expected(Computes what, const T* in, std::size_t n, cudaStream_t stream) {
    if (n == 0 && what != Computes::Reduce) return expected_.data();
    std::size_t bytes = 0;
    switch (what) {
      case Computes::Copy:
        SG_CUDA(cudaMemcpyAsync(expected_.data(), in, n * sizeof(T), cudaMemcpyDeviceToDevice, stream));
        break;
      case Computes::InclusiveScan:
        SG_CUDA((ch00::cub_scan<T, Op, true>(nullptr, bytes, in, expected_.data(), n, stream)));
        SG_CUDA((ch00::cub_scan<T, Op, true>(temp(bytes), bytes, in, expected_.data(), n, stream)));
        break;
      case Computes::ExclusiveScan:
        SG_CUDA((ch00::cub_scan<T, Op, false>(nullptr, bytes, in, expected_.data(), n, stream)));
        SG_CUDA((ch00::cub_scan<T, Op, false>(temp(bytes), bytes, in, expected_.data(), n, stream)));
        break;
      case Computes::Reduce:
        SG_CUDA(cub::DeviceReduce::Reduce(nullptr, bytes, in, expected_.data(), n, Op{}, Op::template identity<T>(), stream));
        SG_CUDA(cub::DeviceReduce::Reduce(temp(bytes), bytes, in, expected_.data(), n, Op{}, Op::template identity<T>(), stream));
        break;
    }
    return expected_.data();
  }

  // Compares got[0, count) with expected[0, count); synchronises.
  DeviceComparison compare(const T* got, const T* expected, std::size_t count, cudaStream_t stream) {
    DeviceComparison zero{0, 0, ~0ull};
    SG_CUDA(cudaMemcpyAsync(result_.data(), &zero, sizeof zero, cudaMemcpyHostToDevice, stream));
    if (count > 0) {
      const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>(blocks_for(count, 256), 2048));
      compare_kernel<T><<<blocks, 256, 0, stream>>>(got, expected, count, result_.data());
      SG_CHECK_LAUNCH();
    }
    DeviceComparison result{};
    SG_CUDA(cudaMemcpyAsync(&result, result_.data(), sizeof result, cudaMemcpyDeviceToHost, stream));
    SG_CUDA(cudaStreamSynchronize(stream));
    return result;
  }

 private:
  void* temp(std::size_t bytes) {
    if (bytes > temp_.size()) temp_ = DeviceBuffer<unsigned char>(bytes);
    return temp_.data();
  }

  DeviceBuffer<T> expected_;
  DeviceBuffer<DeviceComparison> result_;
  DeviceBuffer<unsigned char> temp_;
};

}  // namespace sg

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
// The comparison is exact (==). Integers are exact anyway; floats are compared exactly
// only with inputs drawn so that every sum of them is exact (Draw::Exact, inputs.hpp: small
// integers, whose sums are the same in every order). Random floats in [-1, 1) would round
// differently in every summation order, and the CPU path's tolerance for them needs
// per-element magnitudes.
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

template <typename T, typename Op, Draw draw>
__global__ void fill_random_kernel(T* out, std::size_t n, std::uint64_t seed, std::size_t first_index) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = random_value<T, Op, draw>(seed, first_index + i);
}

// out[0, n) = elements first_index .. first_index + n - 1 of random_input<T, Op, draw>(..., seed),
// drawn on the device (first_index > 0: one GPU's part of an array spread over several).
template <typename T, typename Op, Draw draw = Draw::Random>
void fill_random(T* out, std::size_t n, std::uint64_t seed, cudaStream_t stream, std::size_t first_index = 0) {
  if (n == 0) return;
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>(blocks_for(n, 256), 4096));
  fill_random_kernel<T, Op, draw><<<blocks, 256, 0, stream>>>(out, n, seed, first_index);
  SG_CHECK_LAUNCH();
}

struct DeviceComparison {
  unsigned long long mismatches;
  unsigned long long unwritten;  // mismatches still holding the poison pattern
  unsigned long long first;      // the lowest mismatching index (~0 if none)
};

// Exact equality: for floats, == is value equality, and a NaN (a float output never written
// holds the NaN poison) never equals anything, so it always counts as a mismatch.
template <typename T>
__global__ void compare_kernel(const T* got, const T* expected, std::size_t n, DeviceComparison* result) {
  unsigned long long mismatches = 0, unwritten = 0, first = ~0ull;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    if (got[i] == expected[i]) continue;
    ++mismatches;
    if (is_poison(got[i])) ++unwritten;  // inputs.hpp
    if (i < first) first = i;
  }
  if (mismatches == 0) return;
  atomicAdd(&result->mismatches, mismatches);
  atomicAdd(&result->unwritten, unwritten);
  atomicMin(&result->first, first);
}

// max(|a|, |b|): reduces an array to its largest magnitude (start from 0).
struct LargestMagnitude {
  template <typename T>
  SG_HOST_DEVICE T operator()(const T& a, const T& b) const {
    const T abs_a = a < T(0) ? -a : a, abs_b = b < T(0) ? -b : b;
    return abs_a < abs_b ? abs_b : abs_a;
  }
};

// The device-side check: CUB's output for each kind of result, and an exact comparison
// (floats: of inputs drawn with Draw::Exact only, see above).
template <typename T, typename Op>
class DeviceOracle {
  static_assert(std::is_arithmetic_v<T>, "the device oracle compares numbers");

 public:
  explicit DeviceOracle(std::size_t capacity) : expected_(std::max<std::size_t>(capacity, 1)), result_(1), largest_(1) {}

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

  // The largest |P(k)| over the inclusive prefix sums P of in[0, n), as CUB's float scan
  // computes them (overwrites the last expected result; synchronises). The suite's check that
  // every sum of its float inputs is exact (inputs.hpp): if this is at most
  // exact_prefix_bound, so is every true |P(k)|. Why CUB's own float prefixes are enough to
  // tell: suppose some true |P(k)| exceeded the bound, and take the first such k. Then
  // |P(k)| <= bound + kExactStep, and every sum CUB forms for P(k), a run x_i + ... + x_j
  // inside [0, k], is P(j) - P(i-1) <= 2 bound + kExactStep <= 2^24 in magnitude: an
  // integer a float holds. So each of its additions was exact, CUB's P(k) is the true one,
  // and this returns more than the bound.
  T largest_prefix_sum(const T* in, std::size_t n, cudaStream_t stream) {
    if (n == 0) return T(0);
    std::size_t bytes = 0;
    SG_CUDA((ch00::cub_scan<T, Sum, true>(nullptr, bytes, in, expected_.data(), n, stream)));
    SG_CUDA((ch00::cub_scan<T, Sum, true>(temp(bytes), bytes, in, expected_.data(), n, stream)));
    bytes = 0;
    SG_CUDA(cub::DeviceReduce::Reduce(nullptr, bytes, expected_.data(), largest_.data(), n, LargestMagnitude{}, T(0), stream));
    SG_CUDA(cub::DeviceReduce::Reduce(temp(bytes), bytes, expected_.data(), largest_.data(), n, LargestMagnitude{}, T(0), stream));
    T largest{};
    SG_CUDA(cudaMemcpyAsync(&largest, largest_.data(), sizeof largest, cudaMemcpyDeviceToHost, stream));
    SG_CUDA(cudaStreamSynchronize(stream));
    return largest;
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
  DeviceBuffer<T> largest_;
  DeviceBuffer<unsigned char> temp_;
};

}  // namespace sg

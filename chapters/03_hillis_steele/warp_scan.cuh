// Chapter 03 - Hillis-Steele: the warp-synchronous scan, taught here and included by every
// later chapter (chapter 05's block scan is built on it).
//
// Inside one warp, Kogge-Stone's log-depth network costs nothing extra: the 32 lanes run
// in lock step, so the "barrier" between steps is free, and __shfl_up_sync moves a value
// from lane i - d to lane i through registers, without shared memory. Five steps scan
// 32 values: 32 x 5 - 31 = 129 additions where a serial loop needs 31, but the warp
// executes each step as one instruction for all 32 lanes.
//
//   lane        0   1   2   3   4   5   6   7   ...
//   offset 1:   x0 x01 x12 x23 x34 x45 x56 x67          (lanes >= 1 add lane - 1)
//   offset 2:   x0 x01 x02 x03 x14 x25 x36 x47          (lanes >= 2 add lane - 2)
//   offset 4:   x0 x01 x02 x03 x04 x05 x06 x07          (lanes >= 4 add lane - 4)
//   ... offsets 8 and 16 finish all 32 lanes.
#pragma once

#include <cuda_runtime.h>

namespace ch03 {

inline constexpr int kWarpSize = 32;
inline constexpr unsigned kFullWarp = 0xFFFFFFFFu;

__device__ __forceinline__ int lane_id() { return static_cast<int>(threadIdx.x) % kWarpSize; }

// Inclusive scan of one value per lane across the full warp (all 32 lanes must call it).
// The earlier lanes' value is the left operand, so the operator need not be commutative.
template <typename T, typename Op>
__device__ __forceinline__ T warp_inclusive_scan(T value, Op op) {
  const int lane = lane_id();
#pragma unroll
  for (int offset = 1; offset < kWarpSize; offset *= 2) {
    const T lower = __shfl_up_sync(kFullWarp, value, offset);
    if (lane >= offset) value = op(lower, value);
  }
  return value;
}

// Exclusive from inclusive by shifting one lane up: lane i takes lane i-1's inclusive
// result and lane 0 the identity. (inclusive - x would work for sums only; a shift works
// for every operator, max included.)
template <typename T, typename Op>
__device__ __forceinline__ T warp_exclusive_from_inclusive(T inclusive, Op) {
  const T shifted = __shfl_up_sync(kFullWarp, inclusive, 1);
  return lane_id() == 0 ? Op::template identity<T>() : shifted;
}

// The warp's total: the last lane's inclusive result, broadcast to every lane.
template <typename T>
__device__ __forceinline__ T warp_broadcast_last(T inclusive) {
  return __shfl_sync(kFullWarp, inclusive, kWarpSize - 1);
}

}  // namespace ch03

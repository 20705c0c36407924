// Chapter 02 - global-memory scans: naive Hillis-Steele, one launch per step.
//
// Where it sits: the first scan a student writes, before shared memory (chapter 03 runs
// the same steps inside a block). It extends chapter 00's one-element-per-thread copy:
// each step is that copy plus a second read, x[i - d], and the kernel boundary is the
// only barrier between steps.
//
//   step d = 1, 2, 4, ... < n:   y[i] = x[i - d] op x[i]   (i >= d),   y[i] = x[i]   (i < d)
//
// Model: work O(n log n) (n - d operations per step), depth ceil(log2 n) launches; bytes
// 2n per step, plus n more for the steps whose x[i - d] is too far back to hit L2
// (model.hpp). At n = 2^26 int32: 26 launches, ~54n elements moved, predicted 27x copy;
// measured 44x on an H200: the bytes match, but each step's one 4-byte access per thread
// runs at 1.7 copies per pass, like chapter 00's one_element_per_thread (README).
// Run:   ./build/bin/02_global_memory_scan --variant hillis_steele --n 2^26
//
// The steps ping-pong between `out` and one scratch array of n elements. A step may not
// update in place: thread i would read x[i - d] after thread i - d overwrote it, and
// nothing orders threads of different blocks inside one launch.
#pragma once

#include "02_global_memory_scan/grid.cuh"
#include "02_global_memory_scan/model.hpp"
#include "common/device_buffer.cuh"

#include <cstddef>

namespace ch02 {

// One step. The step reads src shifted right by `shift` places, identity filling the gap:
// shift = 1 on the first step of the exclusive scan (which is the inclusive scan of
// [identity, x0, x1, ...]), so the exclusive scan costs no extra launch.
template <typename T, typename Op>
__global__ void hillis_steele_step_kernel(const T* __restrict__ src, T* __restrict__ dst, std::size_t n, std::size_t distance,
                                          std::size_t shift) {
  const std::size_t i = global_thread_index();
  if (i >= n) return;
  const auto element = [&](std::size_t j) { return j >= shift ? src[j - shift] : Op::template identity<T>(); };
  const T mine = element(i);
  dst[i] = i >= distance ? Op{}(element(i - distance), mine) : mine;
}

template <typename T>
std::size_t hillis_steele_scratch_bytes(std::size_t n) {
  return n * sizeof(T);
}

template <typename T, typename Op, bool kExclusive>
void hillis_steele_scan(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  const std::size_t steps = hillis_steele_launches(n);
  if (steps == 0) return;
  T* scratch = static_cast<T*>(sg::scratch_bytes(hillis_steele_scratch_bytes<T>(n)));
  const T* src = in;
  for (std::size_t step = 0; step < steps; ++step) {
    // Destinations alternate; counting back from the last step, which must land in out.
    T* dst = (steps - 1 - step) % 2 == 0 ? out : scratch;
    const std::size_t shift = kExclusive && step == 0 ? 1 : 0;
    launch_threads(hillis_steele_step_kernel<T, Op>, n, kThreads, stream, src, dst, n, std::size_t{1} << step, shift);
    src = dst;
  }
}

}  // namespace ch02

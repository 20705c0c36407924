// Chapter 01 - reduction: the teaching progression of the GPU Teaching Kit (modules 9.1-9.3).
//
// Where it sits: the first operator after chapter 00's copy. A reduction is "in-only": it
// reads n elements and writes one, so by the byte model it costs half a copy. It is also
// the upsweep of reduce-then-scan (chapter 07): every block first reduces its part of the
// input, as here (chapter 07 with a loop of its own that keeps the input's order). Extends
// chapter 00 by an operator: the copy's loads stay, and its stores become a reduction tree.
//
// Model: work n - 1 operator applications, depth log2(n) steps, bytes moved n + 1
//        elements (read n, write 1) -> 0.5 x copy. The partials between passes add
//        2n / 511 elements here, about 0.4%.
// Run:   ./build/bin/01_reduction --n 2^26
//
// Four block-per-tile variants share one skeleton: block b reduces elements
// [b * 2 kThreads, (b + 1) * 2 kThreads) to one value and writes out[b]; reduce_by_blocks
// runs the same kernel again on those partials until one value is left. Each kernel
// fixes the flaw of the one before it:
//   interleaved_divergent  the textbook tree: thread t owns partial[2t] and adds the
//                          element `stride` away. Active threads are t = 0, stride, 2 stride, ...,
//                          so from the second step on every warp is divergent (half, then a
//                          quarter, ... of its lanes busy) and all warps keep issuing.
//   convergent             the same tree with the active threads packed at the front
//                          (t < stride): a warp is either all busy or all idle, and only the
//                          last 5 steps (stride < 32) diverge. (Idle warps still issue the
//                          step, predicated off: the profile shows the same instruction
//                          count as above. What shrinks is shared-memory traffic.)
//   add_during_load        each thread adds its two elements while loading them. The tree
//                          starts at kThreads values, so it needs half the shared memory and
//                          one step and one barrier fewer.
//   warp_shuffle           the shared-memory tree becomes block_reduce (block_reduce.cuh):
//                          5 register shuffles per warp, one barrier, 5 more shuffles
//                          in warp 0, in place of 8 barriers and steps that leave threads idle.
// fixed_grid.cuh adds the fifth, the fixed-grid vectorised kernel, which reaches the
// byte model.
#pragma once

#include "01_reduction/block_reduce.cuh"
#include "common/check.cuh"
#include "common/device_buffer.cuh"
#include "common/launch.cuh"

#include <cuda_runtime.h>

#include <cstddef>

namespace ch01 {

inline constexpr int kTreeThreads = 256;  // threads per block of the block-per-tile variants

// Every block-per-tile kernel reduces 2 elements per thread, as in the Teaching Kit.
__host__ __device__ constexpr std::size_t elements_per_block(int threads) { return 2 * static_cast<std::size_t>(threads); }
inline constexpr std::size_t kTreeElementsPerBlock = elements_per_block(kTreeThreads);  // 512: the tests' boundary

// ---- the shared skeleton: where a block's elements are, and how the last tile is padded ----

template <int kThreads>
__device__ __forceinline__ std::size_t this_block_begin() {
  return static_cast<std::size_t>(blockIdx.x) * elements_per_block(kThreads);
}

// in[i], or the identity past the end of the input. Padding the last tile with the identity
// means the tree needs no bounds checks and works for Max as well as Sum (a zero pad would
// win a max of negative numbers).
template <typename T, typename Op>
__device__ __forceinline__ T load_or_identity(const T* __restrict__ in, std::size_t i, std::size_t n) {
  return i < n ? in[i] : Op::template identity<T>();
}

// ---- the four kernels: same signature, same loads, different trees -----------------------

// Teaching Kit 9.2: the naive mapping. 8 elements, 4 threads:
//   stride 1: threads 0 1 2 3 add pairs   (0,1) (2,3) (4,5) (6,7)
//   stride 2: threads 0   2   add         (0,2)       (4,6)
//   stride 4: thread  0       adds        (0,4)
// With 256 threads: 9 steps, 9 barriers. The busy threads are spread out (t % stride == 0):
// all 8 warps issue every instruction of the first 6 steps (stride 1 to 32) with only
// 32 / stride of their lanes busy, and for 4-byte elements the accesses at 2t and
// 2t + stride cause 2-way shared-memory bank conflicts (lanes t and t + 16 hit one bank;
// at stride 1 the compiler merges the pair into one 8-byte load instead).
template <typename T, typename Op, int kThreads>
__global__ void __launch_bounds__(kThreads) interleaved_divergent_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  __shared__ T partial[2 * kThreads];
  const Op op{};
  const int t = threadIdx.x;
  const std::size_t begin = this_block_begin<kThreads>();
  partial[t] = load_or_identity<T, Op>(in, begin + t, n);  // coalesced: consecutive threads, consecutive elements
  partial[kThreads + t] = load_or_identity<T, Op>(in, begin + kThreads + t, n);

  for (int stride = 1; stride <= kThreads; stride *= 2) {
    __syncthreads();  // the previous step's results are in shared memory
    if (t % stride == 0) partial[2 * t] = op(partial[2 * t], partial[2 * t + stride]);
  }
  if (t == 0) out[blockIdx.x] = partial[0];  // thread 0 wrote partial[0] itself: no barrier needed
}

// Teaching Kit 9.3: the same tree with the busy threads kept contiguous. 8 elements, 4 threads:
//   stride 4: threads 0 1 2 3 add (0,4) (1,5) (2,6) (3,7)
//   stride 2: threads 0 1     add (0,2) (1,3)
//   stride 1: thread  0       adds (0,1)
// With 256 threads: still 9 steps and 9 barriers, but at stride 256, 128, 64, 32 every warp
// is either fully busy or has no work. A warp with no work still issues the step's loads,
// add and store with every lane predicated off (the compiler does not branch around them),
// so the instruction count does not drop; the shared-memory wavefronts and bank conflicts
// do. Only the last 5 steps, inside warp 0, diverge.
template <typename T, typename Op, int kThreads>
__global__ void __launch_bounds__(kThreads) convergent_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  __shared__ T partial[2 * kThreads];
  const Op op{};
  const int t = threadIdx.x;
  const std::size_t begin = this_block_begin<kThreads>();
  partial[t] = load_or_identity<T, Op>(in, begin + t, n);
  partial[kThreads + t] = load_or_identity<T, Op>(in, begin + kThreads + t, n);

  for (int stride = kThreads; stride >= 1; stride /= 2) {
    __syncthreads();
    if (t < stride) partial[t] = op(partial[t], partial[t + stride]);
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}

// Convergent's first step (stride kThreads) adds elements t and t + kThreads, the two values
// this thread has just loaded. It writes them to shared memory, waits at a barrier and reads them back,
// when it could add them in registers. So add them while loading: the tree then starts from
// kThreads values, with half the shared memory and one step and one barrier fewer.
template <typename T, typename Op, int kThreads>
__global__ void __launch_bounds__(kThreads) add_during_load_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  __shared__ T partial[kThreads];
  const Op op{};
  const int t = threadIdx.x;
  const std::size_t begin = this_block_begin<kThreads>();
  partial[t] = op(load_or_identity<T, Op>(in, begin + t, n), load_or_identity<T, Op>(in, begin + kThreads + t, n));

  for (int stride = kThreads / 2; stride >= 1; stride /= 2) {
    __syncthreads();
    if (t < stride) partial[t] = op(partial[t], partial[t + stride]);
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}

// The tree's steps below stride 32 run inside one warp, where lanes can swap registers
// directly. block_reduce goes further: every warp reduces its own 32 values with shuffles
// (no shared memory, no barrier, all lanes busy), and one barrier later warp 0 reduces the
// 8 warp totals. 8 barriers become 1.
template <typename T, typename Op, int kThreads>
__global__ void __launch_bounds__(kThreads) warp_shuffle_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  __shared__ T warp_totals[kThreads / kWarpSize];
  const Op op{};
  const int t = threadIdx.x;
  const std::size_t begin = this_block_begin<kThreads>();
  const T mine = op(load_or_identity<T, Op>(in, begin + t, n), load_or_identity<T, Op>(in, begin + kThreads + t, n));

  const T total = block_reduce<kThreads>(mine, op, warp_totals);
  if (t == 0) out[blockIdx.x] = total;
}

// ---- the multi-pass launcher all four share ----------------------------------------------

// A kernel that reduces block b's elements of in[0, n) to out[b].
template <typename T>
using BlockReduceKernel = void (*)(const T* in, T* out, std::size_t n);

// How many launches a block-per-tile reduction of n elements takes: each pass divides the
// count by `per_block` (rounding up) until one block is left, so 1 + ceil(log_per_block(n)) - 1
// = ceil(log_per_block(n)) launches for n > 1, and one launch for n <= per_block (n = 0 too:
// that launch writes the identity).
__host__ __device__ constexpr int block_passes(std::size_t n, std::size_t per_block) {
  int passes = 1;
  for (std::size_t count = n; count > per_block; count = (count + per_block - 1) / per_block) ++passes;
  return passes;
}

// Scratch for the partials: pass 1 writes p1 = ceil(n / per_block) of them to region A, pass 2
// writes p2 = ceil(p1 / per_block) to region B, pass 3 writes A again (p3 <= p1), and so on.
// A pass never writes the region it reads. The last pass (one block) writes `out`, so a region
// holding a single partial is never needed.
struct PartialsLayout {
  std::size_t second_offset = 0;  // bytes from the start of the scratch to region B
  std::size_t bytes = 0;          // total scratch; 0 when one pass suffices
};

inline PartialsLayout partials_layout(std::size_t n, std::size_t per_block, std::size_t element_bytes) {
  PartialsLayout layout;
  const std::size_t first = (n + per_block - 1) / per_block;
  if (first <= 1) return layout;
  const std::size_t second = first > per_block ? (first + per_block - 1) / per_block : 0;
  layout.second_offset = (first * element_bytes + 255) / 256 * 256;
  layout.bytes = layout.second_offset + second * element_bytes;
  return layout;
}

template <typename T>
std::size_t tree_scratch_bytes(std::size_t n) {
  return partials_layout(n, kTreeElementsPerBlock, sizeof(T)).bytes;
}

// Runs `kernel` (one block per 2 kThreads elements) on the input, then on its partials,
// and so on until one block writes out[0].
template <typename T, int kThreads>
void reduce_by_blocks(BlockReduceKernel<T> kernel, const T* in, T* out, std::size_t n, cudaStream_t stream) {
  constexpr std::size_t kPerBlock = elements_per_block(kThreads);
  const PartialsLayout layout = partials_layout(n, kPerBlock, sizeof(T));
  unsigned char* scratch = layout.bytes > 0 ? static_cast<unsigned char*>(sg::scratch_bytes(layout.bytes)) : nullptr;
  T* const region_a = reinterpret_cast<T*>(scratch);
  T* const region_b = reinterpret_cast<T*>(scratch + layout.second_offset);

  const T* source = in;
  std::size_t count = n;
  T* next = region_a;
  for (;;) {
    const unsigned blocks = count == 0 ? 1 : sg::blocks_for(count, kPerBlock);
    T* const destination = blocks == 1 ? out : next;
    kernel<<<blocks, kThreads, 0, stream>>>(source, destination, count);
    SG_CHECK_LAUNCH();
    if (blocks == 1) return;
    source = destination;
    count = blocks;
    next = destination == region_a ? region_b : region_a;
  }
}

// ---- launchers (the uniform chapter API: device in, device out, n, stream) ----------------

template <typename T, typename Op>
void reduce_interleaved_divergent(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  reduce_by_blocks<T, kTreeThreads>(interleaved_divergent_kernel<T, Op, kTreeThreads>, in, out, n, stream);
}

template <typename T, typename Op>
void reduce_convergent(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  reduce_by_blocks<T, kTreeThreads>(convergent_kernel<T, Op, kTreeThreads>, in, out, n, stream);
}

template <typename T, typename Op>
void reduce_add_during_load(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  reduce_by_blocks<T, kTreeThreads>(add_during_load_kernel<T, Op, kTreeThreads>, in, out, n, stream);
}

template <typename T, typename Op>
void reduce_warp_shuffle(const T* in, T* out, std::size_t n, cudaStream_t stream) {
  reduce_by_blocks<T, kTreeThreads>(warp_shuffle_kernel<T, Op, kTreeThreads>, in, out, n, stream);
}

}  // namespace ch01

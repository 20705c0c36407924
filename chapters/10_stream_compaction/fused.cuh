// Chapter 10 - compaction in one pass: ballots count, the look-back places.
//
// Extends chapter 09's v4 (same ticket, same epoch-tagged status words, same look-back, same
// tile and launch knobs) by what a tile publishes: not the reduction of its values but the
// number of its survivors. The look-back then hands every tile the number of survivors
// before it, which is where its own survivors start in the output. One read of the input,
// one write of the survivors: s (n + k) bytes, against the pipeline's 2 s n + 4 o n + s k.
//
// Inside a tile nothing is scanned in shared memory. Each warp owns a contiguous stretch of
// the tile, read in rows: in row r lane l holds kVector consecutive elements (one 16-byte
// load). For each row the warp needs, for every lane, how many survivors the lanes before it
// hold (its place in the row), and the row's total (where the next row starts):
//
//   __ballot_sync(mask, pred)   one bit per lane: which lanes' pred is true
//   __popc(bits & lanes_below)  how many of the lanes before mine had it true
//
// A lane's count in a row is 0 .. kVector (0 .. 4 for int32), a number of 3 bits. Ballot each
// bit of it across the warp, and bit b contributes 2^b x popc(ballot_b & lanes_below) to the
// lane's prefix, 2^b x popc(ballot_b) to the row's total: a scan of the whole warp in three
// ballots and six popcounts, no shuffles, no shared memory. The warps' totals then meet in
// shared memory (warp 0 scans them with chapter 03's warp scan), warp 0 looks back for the
// tile, and every lane writes its survivors straight to their places: contiguous runs, so a
// warp's stores still land on a few whole cache lines.
//
// Model: work n predicate evaluations + a few ballots per 32 kVector elements; bytes
// s (n + k) + a status word per tile -> (n + k) / 2n x copy (0.75 at keep 0.5).
// Run: ./build/bin/10_stream_compaction --variant fused --n 2^26,2^28
#pragma once

#include "09_decoupled_lookback/tuned.cuh"  // epoch_state, WarpLookBack, Tuning, Tuned
#include "10_stream_compaction/compaction.cuh"
#include "common/launch.cuh"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstring>

namespace ch10 {

// Elements a lane holds in one row: one 16-byte vector.
using sg::kVector;

// Bits needed for a lane's count in a row (0 .. kVector).
template <typename T>
inline constexpr int kCountBits = kVector<T> >= 4 ? 3 : (kVector<T> >= 2 ? 2 : 1);

__device__ __forceinline__ unsigned lanes_below() {
  unsigned mask;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
  return mask;
}

// Every lane's exclusive prefix of `count` (0 .. 2^kBits - 1) across the warp, and the warp's
// total, from one ballot per bit.
template <int kBits>
__device__ __forceinline__ void ballot_scan(unsigned count, unsigned& before_me, unsigned& total) {
  const unsigned below = lanes_below();
  before_me = 0;
  total = 0;
#pragma unroll
  for (int bit = 0; bit < kBits; ++bit) {
    const unsigned votes = __ballot_sync(ch03::kFullWarp, (count >> bit) & 1u);
    before_me += static_cast<unsigned>(__popc(votes & below)) << bit;
    total += static_cast<unsigned>(__popc(votes)) << bit;
  }
}

// kRows rows of kVector elements per thread; Offset: unsigned (n < 2^31) or unsigned long long.
template <typename T, typename Offset, typename LookBack, typename State, int kThreads, int kRows, int kMinBlocks, bool kVectorLoads>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    fused_compact_kernel(const T* __restrict__ in, T* __restrict__ out, unsigned long long* __restrict__ count, std::size_t n,
                         Keep<T> keep, State state, sg::Watchdog dog) {
  constexpr int kV = kVector<T>;
  constexpr int kWarps = kThreads / ch03::kWarpSize;
  constexpr int kWarpItems = ch03::kWarpSize * kV * kRows;
  constexpr int kTileItems = kWarps * kWarpItems;
  static_assert(kWarps <= ch03::kWarpSize, "warp 0 scans one count per warp");
  __shared__ Offset warp_offset[kWarps];
  __shared__ unsigned long long tile_index;

  if constexpr (State::kPrefetch) state.prefetch(in, n, kTileItems);
  const std::size_t tile = state.take(tile_index);
  const std::size_t begin = tile * kTileItems;
  const int valid = static_cast<int>(n - begin < static_cast<std::size_t>(kTileItems) ? n - begin : kTileItems);
  const int warp = static_cast<int>(threadIdx.x) / ch03::kWarpSize;
  const int lane = ch03::lane_id();
  const T* warp_in = in + begin + static_cast<std::size_t>(warp) * kWarpItems;
  const int warp_valid = valid - warp * kWarpItems;  // may be <= 0 in the last tile

  // 1. load: row r of this warp is its elements [r 32 kV, (r + 1) 32 kV), lane l holding kV in a row
  T items[kRows][kV];
  const bool vectors = kVectorLoads && valid == kTileItems && sg::aligned_16(in);
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const int first = (r * ch03::kWarpSize + lane) * kV;
    if (vectors) {
      const uint4 raw = *reinterpret_cast<const uint4*>(warp_in + first);
      memcpy(items[r], &raw, sizeof raw);
    } else {
#pragma unroll
      for (int v = 0; v < kV; ++v) items[r][v] = first + v < warp_valid ? warp_in[first + v] : T(0);
    }
  }

  // 2. count: one bit per kept element of a row, the lane's place among the warp's survivors
  unsigned kept[kRows];
  unsigned place[kRows];
  unsigned warp_count = 0;
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const int first = (r * ch03::kWarpSize + lane) * kV;
    kept[r] = 0;
#pragma unroll
    for (int v = 0; v < kV; ++v)
      if (first + v < warp_valid && keep(items[r][v])) kept[r] |= 1u << v;
    unsigned before_me, row_total;
    ballot_scan<kCountBits<T>>(static_cast<unsigned>(__popc(kept[r])), before_me, row_total);
    place[r] = warp_count + before_me;
    warp_count += row_total;
  }
  if (lane == 0) warp_offset[warp] = warp_count;
  __syncthreads();

  // 3. warp 0: where each warp starts in the tile, the tile's count, and (look-back) where the tile starts
  if (warp == 0) {
    const Offset mine = lane < kWarps ? warp_offset[lane] : Offset(0);
    const Offset inclusive = ch03::warp_inclusive_scan(mine, sg::Sum{});
    const Offset tile_count = __shfl_sync(ch03::kFullWarp, inclusive, kWarps - 1);
    const Offset tile_offset = LookBack::exclusive_prefix(state.status, tile, tile_count, sg::Sum{}, dog);
    if (lane < kWarps) warp_offset[lane] = tile_offset + (inclusive - mine);
    if (lane == 0 && tile == gridDim.x - 1) *count = static_cast<unsigned long long>(tile_offset + tile_count);
  }
  __syncthreads();

  // 4. write every survivor to its place
  const Offset base = warp_offset[warp];
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    Offset at = base + place[r];
#pragma unroll
    for (int v = 0; v < kV; ++v)
      if ((kept[r] >> v) & 1u) out[at++] = items[r][v];
  }
}

template <typename T, typename Config>
inline constexpr int kRowsPerThread = Config::kBytesPerThread / 16 > 0 ? Config::kBytesPerThread / 16 : 1;

template <typename T, typename Config>
inline constexpr std::size_t kFusedTileItems = static_cast<std::size_t>(Config::kThreads) * kRowsPerThread<T, Config> * kVector<T>;

template <typename T, typename Offset, typename Config, bool kVectorLoads>
void launch_fused(const T* in, T* out, unsigned long long* count, std::size_t n, Keep<T> keep, cudaStream_t stream) {
  using State = ch09::EpochState<Offset, Config::kPrefetch>;
  using LookBack = ch09::WarpLookBack<Config::kInitialDelayNs, Config::kPollDelayNs>;
  constexpr auto kernel = fused_compact_kernel<T, Offset, LookBack, State, Config::kThreads, kRowsPerThread<T, Config>,
                                               Config::kMinBlocks, kVectorLoads>;
  constexpr std::size_t kTile = kFusedTileItems<T, Config>;
  const std::size_t tiles = (n + kTile - 1) / kTile;
  const State state = ch09::epoch_state<Offset, Config, kernel>(tiles, stream);
  kernel<<<sg::blocks_for(tiles, 1), Config::kThreads, 0, stream>>>(in, out, count, n, keep, state, sg::watchdog());
  SG_CHECK_LAUNCH();
}

// Chapter 09's v4 configuration (ch09::Tuned: 128 threads x 192 bytes, 4 blocks per SM, L2
// prefetch 12% of the resident blocks ahead) with CUB's shorter sleeps (1245 ns before the
// first look, 648 between looks): a compaction tile has less to do after its look-back than a
// scan tile (it stores about half as much), so the look-back is a larger share of a tile's life,
// and a 4 us first sleep costs more than the contention it avoids. The sweep in the README.
using CompactTuned = ch09::Tuning<128, 192, 1245, 648, 4, true, 12>;

// The launcher: CompactTuned unless a sweep row says otherwise.
template <typename T, typename Config = CompactTuned, bool kVectorLoads = true>
void fused_compact(const T* in, T* out, unsigned long long* count, std::size_t n, Keep<T> keep, cudaStream_t stream) {
  if (n == 0) {
    SG_CUDA(cudaMemsetAsync(count, 0, sizeof *count, stream));
    return;
  }
  if (wide_offsets(n)) launch_fused<T, unsigned long long, Config, kVectorLoads>(in, out, count, n, keep, stream);
  else launch_fused<T, unsigned int, Config, kVectorLoads>(in, out, count, n, keep, stream);
}

}  // namespace ch10

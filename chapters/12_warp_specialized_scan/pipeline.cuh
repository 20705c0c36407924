// Chapter 12 - the pieces every step shares: Hopper's mbarriers and bulk copies, the ring of
// stages, the tiles of an array at any alignment, and the look-back warp.
//
//   mbarrier      a 64-bit object in shared memory that counts arrivals *and bytes*. A phase
//                 completes when the expected threads have arrived and every byte announced
//                 with expect_bytes has landed. Waiters wait for the phase's parity (0, 1, 0,
//                 ...), so one barrier serves every lap of the ring without being set up again.
//   cp.async.bulk one thread asks the copy engine (the TMA unit) to move a contiguous run of
//                 bytes: global -> shared, counted on an mbarrier as the bytes land; or shared ->
//                 global, in a "bulk group" the thread commits and later waits on. No
//                 registers and no per-element instructions. Addresses 16-byte aligned, sizes
//                 a multiple of 16.
//   proxies       the copy engine reaches shared memory through the "async proxy", ordinary
//                 loads and stores through the "generic proxy": a thread that wrote a stage
//                 with ordinary stores orders them before a bulk copy with fence.proxy.async.
//   bar.sync id   a named barrier: only the threads that name it wait for each other, so the
//                 compute warps synchronise while the producer and look-back warps go on.
//
// Every wrapper is one call of libcu++'s cuda::ptx (the CUDA Toolkit), which emits exactly the
// named PTX instruction. Every wait is bounded (common/watchdog.cuh): a block that waits too long
// reports the tile and gives up, so a bug fails a check instead of hanging the GPU.
#pragma once

#include "03_hillis_steele/warp_scan.cuh"
#include "09_decoupled_lookback/tuned.cuh"
#include "common/device_buffer.cuh"
#include "common/watchdog.cuh"

#include <cuda/ptx>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>

namespace ch12 {

using Mbarrier = std::uint64_t;
inline constexpr int kMaxStages = 8;
inline constexpr unsigned long long kNoTile = ~0ull;  // the producer's "no more tiles"
inline constexpr int kBytesPerThread = 64;             // each compute thread: 4 vectors of 16 bytes
template <typename T>
inline constexpr int kItems = kBytesPerThread / static_cast<int>(sizeof(T));
template <typename T>
inline constexpr std::size_t kVector = 16 / sizeof(T);  // elements per 16 bytes

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define SG_CH12_DEVICE_CODE 1  // bulk copies and byte-counting mbarriers: sm_90 on
#else
#define SG_CH12_DEVICE_CODE 0
#endif

#if SG_CH12_DEVICE_CODE
__device__ __forceinline__ void init_mbarrier(Mbarrier* barrier, unsigned arrivals) { cuda::ptx::mbarrier_init(barrier, arrivals); }
// the initialised barriers, visible to the copy engine (a __syncthreads() then shows them to the block)
__device__ __forceinline__ void fence_mbarrier_init() { cuda::ptx::fence_mbarrier_init(cuda::ptx::sem_release, cuda::ptx::scope_cluster); }
__device__ __forceinline__ void arrive(Mbarrier* barrier) { cuda::ptx::mbarrier_arrive(barrier); }
// announces `bytes` that bulk copies will deliver before this phase completes (without arriving)
__device__ __forceinline__ void expect_bytes(Mbarrier* barrier, unsigned bytes) {
  cuda::ptx::mbarrier_expect_tx(cuda::ptx::sem_relaxed, cuda::ptx::scope_cta, cuda::ptx::space_shared, barrier, bytes);
}

// Waits for the phase of parity `parity` (acquire: what the arriving threads wrote, and the
// bytes the copies delivered, are visible after it). After the watchdog's limit it records the
// tile and returns false. It does not stop early when another wait gave up: a block that left
// its pipeline while bulk copies still wrote into its shared memory would turn a reported
// failure into a crash.
__device__ __forceinline__ bool wait_phase(Mbarrier* barrier, unsigned parity, const sg::Watchdog& dog, unsigned long long tile) {
  if (cuda::ptx::mbarrier_try_wait_parity(barrier, parity)) return true;  // try_wait suspends a while itself
  const unsigned long long start = sg::global_time_ns();
  for (unsigned tries = 1;; ++tries) {
    if (cuda::ptx::mbarrier_try_wait_parity(barrier, parity)) return true;
    if ((tries & 15u) == 0 && sg::global_time_ns() - start > dog.limit_ns) {
      dog.report(tile, tile, sg::global_time_ns() - start);
      return false;
    }
  }
}

// global -> shared: `bytes` land at `target`, counted on `barrier`
__device__ __forceinline__ void bulk_load(void* target, const void* source, unsigned bytes, Mbarrier* barrier) {
  cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, target, source, bytes, barrier);
}
// shared -> global, as one more bulk group of this thread
__device__ __forceinline__ void bulk_store(void* target, const void* source, unsigned bytes) {
  cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared, target, source, bytes);
  cuda::ptx::cp_async_bulk_commit_group();
}
// until at most kPending of this thread's bulk groups are still reading shared memory
template <int kPending>
__device__ __forceinline__ void wait_bulk_store_reads() { cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<kPending>{}); }
// this thread's ordinary shared-memory accesses, before later bulk copies' accesses
__device__ __forceinline__ void fence_shared_for_bulk_copies() { cuda::ptx::fence_proxy_async(cuda::ptx::space_shared); }
#endif  // SG_CH12_DEVICE_CODE

// A barrier of the block's first kThreads threads: the compute warps (barrier 0 is __syncthreads).
template <int kThreads>
struct ComputeBarrier {
  static_assert(kThreads % 32 == 0, "whole warps");
  __device__ static void sync() { asm volatile("bar.sync 1, %0;" ::"n"(kThreads) : "memory"); }
};

// A stage and the parity of its current lap, advanced together around the ring.
struct RingPosition {
  int stage = 0;
  unsigned parity = 0;
  int round = 0;  // laps completed (the producer's first lap waits for no empty stage)
  __device__ void advance(int stages) {
    if (++stage == stages) stage = 0, parity ^= 1u, ++round;
  }
};

// A ticket counter that puts itself back to 0: a launch draws `tiles` + gridDim.x tickets in all
// (every block draws until it gets one past the end), and the block that draws the very last
// one resets the counter for the next launch (chapter 09's self-resetting ticket).
struct PersistentTicket {
  unsigned long long* counter;
  unsigned long long tiles;
  __device__ unsigned long long draw() const {
    const unsigned long long ticket = atomicAdd(counter, 1ull);
    if (ticket == tiles + gridDim.x - 1) atomicExch(counter, 0ull);
    return ticket;
  }
};

// (testing) At most this many blocks per launch; 0: as many as the GPU holds. With three blocks
// a small array goes round every ring many times, so compute-sanitizer sees every stage reused.
inline unsigned& grid_limit() {
  static unsigned limit = 0;
  return limit;
}
inline unsigned persistent_grid(unsigned long long tiles, unsigned resident) {
  unsigned long long grid = std::min<unsigned long long>(tiles, resident);
  if (grid_limit() > 0) grid = std::min<unsigned long long>(grid, grid_limit());
  return static_cast<unsigned>(grid);
}

// ---- tiles at any alignment ------------------------------------------------------------------
// Bulk copies need 16-byte aligned addresses. Tiles are cut from the 16-byte boundary at or
// below `in`: element i sits at position i + shift of a "virtual" array that starts aligned, so
// every tile but the first and the last is one aligned run. The producer bulk-copies each tile's
// aligned middle and fills the few positions around it itself (fill_tile_ends). A store is a
// bulk copy too when `out` has `in`'s offset from a 16-byte boundary, ordinary stores otherwise.
struct Layout {
  std::size_t n;
  std::size_t shift;  // elements between the 16-byte boundary at or below `in`, and `in`
  unsigned long long tiles;
  bool same_alignment;
};
template <typename T>
Layout layout_of(const T* in, const T* out, std::size_t n, std::size_t tile_items) {
  Layout layout{n, (reinterpret_cast<std::uintptr_t>(in) % 16) / sizeof(T), 0, false};
  layout.tiles = (n + layout.shift + tile_items - 1) / tile_items;
  layout.same_alignment = reinterpret_cast<std::uintptr_t>(in) % 16 == reinterpret_cast<std::uintptr_t>(out) % 16;
  return layout;
}

// Tile t in virtual positions: it starts at `first`, holds array elements [lo, hi), and their
// aligned middle is [core_lo, core_hi).
struct TileSpan {
  std::size_t first, lo, hi, core_lo, core_hi;
};
template <typename T, std::size_t kTileItems>
__device__ __forceinline__ TileSpan tile_span(const Layout& layout, std::size_t tile) {
  TileSpan span;
  span.first = tile * kTileItems;
  span.lo = span.first > layout.shift ? span.first : layout.shift;
  const std::size_t end = layout.shift + layout.n;
  span.hi = span.first + kTileItems < end ? span.first + kTileItems : end;
  span.core_lo = (span.lo + kVector<T> - 1) / kVector<T> * kVector<T>;
  span.core_hi = span.hi / kVector<T> * kVector<T>;
  if (span.core_hi < span.core_lo) span.core_hi = span.core_lo;
  return span;
}

// The producer warp's part of a tile besides its bulk copy (first and last tile only): lanes
// [0, V) load the partial vector before the aligned middle, lanes [V, 2V) the one after it, and
// the rest of a partial last tile is filled with the identity, 16 bytes a store. The two loads
// are issued first and stored last, so no lane waits a round trip to DRAM before the fill.
template <typename T, typename Op, std::size_t kTileItems>
__device__ __forceinline__ void fill_tile_ends(const T* aligned_in, const TileSpan& span, T* stage, int lane) {
  constexpr int V = static_cast<int>(kVector<T>);
  const std::size_t end = span.first + kTileItems;
  const bool head = lane < V;
  const std::size_t p = head ? span.first + lane : span.core_hi + (lane - V);
  const bool mine = lane < 2 * V && (head ? p < span.core_lo : p < end);
  T value = Op::template identity<T>();
  if (mine && p >= span.lo && p < span.hi) value = aligned_in[p];
  if (span.core_hi < end) {
    union {
      T items[V];
      uint4 vector;
    } identities;
#pragma unroll
    for (int i = 0; i < V; ++i) identities.items[i] = Op::template identity<T>();
    for (std::size_t q = span.core_hi + V + static_cast<std::size_t>(lane) * V; q < end; q += 32 * V)
      *reinterpret_cast<uint4*>(stage + (q - span.first)) = identities.vector;
  }
  if (mine) stage[p - span.first] = value;
}

#if SG_CH12_DEVICE_CODE
// The producer warp's load of `tile` into `stage`: lane 0 announces the aligned middle's bytes on
// the stage's `full` barrier and asks the copy engine for them; while that copy flies, the lanes
// fill the ends (an end is an ordinary load: a round trip to DRAM that held back the whole tile
// when it came first); then every lane arrives, and the phase completes once the bytes are in.
template <typename T, typename Op, std::size_t kTileItems>
__device__ __forceinline__ void load_tile(const T* aligned_in, const Layout& layout, unsigned long long tile, T* stage, Mbarrier* full,
                                          int lane) {
  const TileSpan span = tile_span<T, kTileItems>(layout, tile);
  if (lane == 0) {
    const unsigned bytes = static_cast<unsigned>((span.core_hi - span.core_lo) * sizeof(T));
    expect_bytes(full, bytes);  // before the copy can deliver any of them
    if (bytes > 0) bulk_load(stage + (span.core_lo - span.first), aligned_in + span.core_lo, bytes, full);
  }
  fill_tile_ends<T, Op, kTileItems>(aligned_in, span, stage, lane);
  fence_shared_for_bulk_copies();  // these stores, before a later lap's bulk copy into the stage
  arrive(full);
}
// Asks the L2 for a tile's aligned middle (chapter 09's bulk prefetch): its bytes leave DRAM now
// and the tile's bulk copy later finds them in the L2.
template <typename T, std::size_t kTileItems>
__device__ __forceinline__ void prefetch_tile(const T* aligned_in, const Layout& layout, unsigned long long tile) {
  if (tile >= layout.tiles) return;
  const TileSpan span = tile_span<T, kTileItems>(layout, tile);
  if (span.core_hi > span.core_lo)
    ch09::prefetch_l2(aligned_in + span.core_lo, static_cast<unsigned>((span.core_hi - span.core_lo) * sizeof(T)));
}
#endif

// ---- a stage read without bank conflicts -----------------------------------------------------
// A stage holds the tile as it lies in global memory (a bulk copy cannot pad it). Thread t's
// items are its 4 consecutive 16-byte vectors; read in order, the 8 threads of a shared-memory
// cycle would start 64 bytes apart and meet in the same banks. So thread t reads its vector j
// from position j XOR s(t), a swizzle that gives those 8 threads 8 different bank groups.
template <int kVectors>
__device__ __forceinline__ int swizzle_of_thread() {
  constexpr int kThreadsPerGroup = kVectors >= 8 ? 1 : 8 / kVectors;
  return (static_cast<int>(threadIdx.x) / kThreadsPerGroup) % (kVectors < 8 ? kVectors : 8);
}
// raw[j] <-> raw[j ^ swizzle]: log2(count) rounds of selects; its own inverse
template <typename U, int kCount>
__device__ __forceinline__ void xor_permute(U (&raw)[kCount], int swizzle) {
#pragma unroll
  for (int bit = 1; bit < kCount; bit *= 2) {
    const bool flip = (swizzle & bit) != 0;
#pragma unroll
    for (int j = 0; j < kCount; ++j) {
      if ((j & bit) != 0) continue;
      const U a = raw[j], b = raw[j | bit];
      raw[j] = flip ? b : a;
      raw[j | bit] = flip ? a : b;
    }
  }
}
// kInOrder: the vectors put back in order after the read (and before the write); otherwise
// register vector j holds the stage's vector j ^ s(t) (step 6's items kept as read)
template <bool kInOrder, typename T, int kCount>
__device__ __forceinline__ void read_stage(const T* stage, T (&items)[kCount]) {
  constexpr int kVectors = kCount * sizeof(T) / 16;
  const uint4* mine = reinterpret_cast<const uint4*>(stage) + threadIdx.x * kVectors;
  const int swizzle = swizzle_of_thread<kVectors>();
  uint4 raw[kVectors];
#pragma unroll
  for (int j = 0; j < kVectors; ++j) raw[j] = mine[j ^ swizzle];
  if constexpr (kInOrder) xor_permute(raw, swizzle);
  std::memcpy(items, raw, sizeof(raw));
}
template <bool kInOrder, typename T, int kCount>
__device__ __forceinline__ void write_stage(T* stage, const T (&items)[kCount]) {
  constexpr int kVectors = kCount * sizeof(T) / 16;
  uint4* mine = reinterpret_cast<uint4*>(stage) + threadIdx.x * kVectors;
  const int swizzle = swizzle_of_thread<kVectors>();
  uint4 raw[kVectors];
  std::memcpy(raw, items, sizeof(raw));
  if constexpr (kInOrder) xor_permute(raw, swizzle);
#pragma unroll
  for (int j = 0; j < kVectors; ++j) mine[j ^ swizzle] = raw[j];
}

#if SG_CH12_DEVICE_CODE
// Positions [part_first, part_end) of a scanned tile go from its stage to global memory, by the
// `stride` threads of rank 0 .. stride-1. `out` aligned like `in`: the aligned middle by one bulk
// store of `issuer` (bulk) or by 16-byte stores, the few elements around it (first and last tile
// only) one by one. Otherwise every element by an ordinary store.
template <typename T>
__device__ __forceinline__ void store_part(T* aligned_out, const T* stage, const TileSpan& span, std::size_t part_first,
                                           std::size_t part_end, int rank, int stride, bool aligned, bool bulk, bool issuer) {
  const std::size_t lo = std::max(span.lo, part_first), hi = std::max(lo, std::min(span.hi, part_end));
  if (!aligned) {
    for (std::size_t p = lo + rank; p < hi; p += stride) aligned_out[p] = stage[p - span.first];
    return;
  }
  const std::size_t core_lo = std::min(std::max(span.core_lo, lo), hi), core_hi = std::min(std::max(span.core_hi, core_lo), hi);
  if (bulk) {
    if (issuer && core_hi > core_lo)
      bulk_store(aligned_out + core_lo, stage + (core_lo - span.first), static_cast<unsigned>((core_hi - core_lo) * sizeof(T)));
  } else {
    for (std::size_t p = core_lo + rank * kVector<T>; p < core_hi; p += stride * kVector<T>)
      *reinterpret_cast<uint4*>(aligned_out + p) = *reinterpret_cast<const uint4*>(stage + (p - span.first));
  }
  for (std::size_t p = lo + rank; p < core_lo; p += stride) aligned_out[p] = stage[p - span.first];
  for (std::size_t p = core_hi + rank; p < hi; p += stride) aligned_out[p] = stage[p - span.first];
}
#endif

// ---- the ring's barriers and the look-back warps (steps 2-6) ----------------------------------
// The ring of a block: per stage, four barriers and what the warps hand each other.
//   full      the tile has landed            (the producer's 32 lanes + the bulk copy's bytes)
//   empty     the stage may be refilled      (every compute thread, once done with it)
//   reduced   the tile's aggregate is known  (compute thread 0)
//   resolved  the tile's prefix is known     (the look-back warp)
template <typename T>
struct Ring {
  Mbarrier full[kMaxStages], empty[kMaxStages], reduced[kMaxStages], resolved[kMaxStages];
  unsigned long long tile_of[kMaxStages];
  T aggregate[kMaxStages], prefix[kMaxStages];
};

// Chapter 09's status words, tile t's at t x kStride: kStride = 1 packs them (16 words share a
// 128-byte line of the L2); step 4 puts each on a 32-byte sector of its own.
template <typename T, std::size_t kStride>
struct StridedStatus : ch09::EpochStatus<T> {
  __device__ void publish(std::size_t tile, unsigned int status, T value) const { ch09::EpochStatus<T>::publish(tile * kStride, status, value); }
  __device__ ch09::Observed<T> poll(std::size_t tile) const { return ch09::EpochStatus<T>::poll(tile * kStride); }
};
template <typename T, int kStatusBytes>
inline constexpr std::size_t kStatusStride = std::max<std::size_t>(1, kStatusBytes / sizeof(ch08::PackedWord<T>));

// This launch's status words and epoch (chapter 09's lease: no clearing between launches).
template <typename T, typename Status, std::size_t kStride>
Status lease_status(unsigned long long tiles, cudaStream_t stream, unsigned long long** ticket) {
  const ch09::EpochLease lease = ch09::lease_epoch_words<sizeof(ch08::PackedWord<T>)>(tiles * kStride, stream);
  Status status{};
  status.words = static_cast<ch08::PackedWord<T>*>(lease.words);
  status.epoch = lease.epoch;
  *ticket = lease.ticket;
  return status;
}

#if SG_CH12_DEVICE_CODE
// Look-back warp `which` of kWarps: ring positions which, which + kWarps, ... For each, it waits
// until the compute warps have published the tile's aggregate, then walks back with chapter 09's
// warp look-back (which publishes the tile's P) and hands the prefix to the compute warps. The
// compute warps meanwhile reduce the next tiles: the look-back is off their path.
template <typename T, typename Op, int kWarps, typename Status>
__device__ void look_back_warp(const Status& status, Ring<T>& ring, int stage_count, int which, const sg::Watchdog& dog) {
  const Op op{};
  RingPosition at;
  for (int w = 0; w < which; ++w) at.advance(stage_count);
  for (;;) {
    const int s = at.stage;
    wait_phase(&ring.reduced[s], at.parity, dog, 0);
    const unsigned long long tile = ring.tile_of[s];
    if (tile == kNoTile) return;
    const T prefix = tile == 0 ? Op::template identity<T>()
                               : ch09::WarpLookBack<>::resolve(status, tile, ring.aggregate[s], op, dog, true);
    if (ch03::lane_id() == 0) {
      ring.prefix[s] = prefix;
      arrive(&ring.resolved[s]);
    }
    for (int w = 0; w < kWarps; ++w) at.advance(stage_count);
  }
}
// (compute warps) Tile k's aggregate, the moment it is reduced: other blocks wait for it, and
// a look-back warp of this block takes it from the ring.
template <typename T, typename Status>
__device__ __forceinline__ void publish_aggregate(Ring<T>& ring, int s, const Status& status, unsigned long long tile, T total) {
  if (threadIdx.x == 0) {
    ring.aggregate[s] = total;
    status.publish(tile, tile == 0 ? ch09::kInclusive : ch09::kAggregate, total);
    arrive(&ring.reduced[s]);
  }
}
// (compute warps) Early release: the last bulk store was issued a reduce ago and has read its
// stage by now (rarely a wait), so the stage goes back to the producer a tile sooner than at the
// next store. `issuer`: the thread that issued that store.
template <typename T>
__device__ __forceinline__ void release_stored(Ring<T>& ring, int& stored, bool issuer) {
  if (stored < 0) return;
  if (issuer) wait_bulk_store_reads<0>();
  arrive(&ring.empty[stored]);
  stored = -1;
}
// (compute thread 0) The tiles ran out at ring position `last`: each look-back warp waits at one
// of the kWarps positions from there on. Tell each that there is nothing more. The producer wrote
// kNoTile at `last`, where every compute thread reads it: only the positions after it are written
// (they hold tiles of the last lap, scanned already, since S >= L + 2).
template <typename T, int kWarps>
__device__ void stop_look_back_warps(Ring<T>& ring, RingPosition last, int stage_count) {
  arrive(&ring.reduced[last.stage]);
  for (int w = 1; w < kWarps; ++w) {
    last.advance(stage_count);
    ring.tile_of[last.stage] = kNoTile;
    arrive(&ring.reduced[last.stage]);
  }
}
#endif

// ---- the geometry, from the device ---------------------------------------------------------------
struct Geometry {
  int stages, lag, blocks_per_sm;
};
// As many stages of `tile_bytes` as the SM's shared memory holds for `blocks_per_sm` blocks
// (less each block's static shared memory and the 1 KiB the driver keeps per block), and a lag
// that leaves two stages loading: of S stages, L + 1 hold reduced tiles, from the one being
// scanned and stored to the one just reduced, and S - L - 1 = 2 bring bytes in (Little's law:
// README).
inline Geometry device_geometry(int blocks_per_sm, std::size_t tile_bytes, std::size_t static_bytes) {
  const int device = sg::current_device();
  int per_sm = 0, per_block = 0;
  SG_CUDA(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
  SG_CUDA(cudaDeviceGetAttribute(&per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const std::size_t bytes = std::min<std::size_t>(per_sm / blocks_per_sm - 1024, per_block) - static_bytes;
  const int stages = std::max(4, std::min(static_cast<int>(bytes / tile_bytes), kMaxStages));
  return {stages, stages - 3, blocks_per_sm};
}

inline int sm_count() {
  static std::map<int, int> per_device;
  auto found = per_device.find(sg::current_device());
  if (found == per_device.end()) {
    int sms = 0;
    SG_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, sg::current_device()));
    found = per_device.emplace(sg::current_device(), sms).first;
  }
  return found->second;
}

// A kernel's launch on one GPU, worked out once: whether it runs there at all (sm_90 code on an
// sm_90 GPU; otherwise the launchers run chapter 09's v4, which computes the same scan), its ring
// (`geometry` as given, or from the shared memory when its stages are 0), and its grid: every
// block resident at once, since tiles are dealt round-robin and a block may wait for any other.
struct Plan {
  bool bulk_copies = false;
  Geometry geometry{};
  unsigned resident_blocks = 0;
};
template <typename Kernel>
const Plan& plan_launch(std::map<int, Plan>& plans, Kernel kernel, int threads, std::size_t tile_bytes, Geometry geometry) {
  auto found = plans.find(sg::current_device());
  if (found != plans.end()) return found->second;
  Plan plan;
  int major = 0;
  SG_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, sg::current_device()));
  cudaFuncAttributes attributes{};
  SG_CUDA(cudaFuncGetAttributes(&attributes, kernel));
  plan.bulk_copies = major >= 9 && attributes.ptxVersion >= 90 && attributes.binaryVersion >= 90;
  if (plan.bulk_copies) {
    if (geometry.stages == 0) geometry = device_geometry(geometry.blocks_per_sm, tile_bytes, attributes.sharedSizeBytes);
    plan.geometry = geometry;
    const std::size_t shared = geometry.stages * tile_bytes;
    SG_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
    int fits = 0;
    SG_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fits, kernel, threads, shared));
    if (fits < geometry.blocks_per_sm)
      throw std::runtime_error("chapter 12: " + std::to_string(geometry.blocks_per_sm) + " blocks per SM of " +
                               std::to_string(geometry.stages) + " stages do not fit on this GPU (" + std::to_string(fits) + " do)");
    plan.resident_blocks = static_cast<unsigned>(sm_count() * geometry.blocks_per_sm);
  }
  return plans.emplace(sg::current_device(), plan).first->second;
}

}  // namespace ch12

// Chapter 12 - Hopper's pieces for a pipeline in shared memory: mbarriers, bulk copies, named
// barriers, and the ticket of a persistent grid.
//
//   mbarrier      a 64-bit object in shared memory that counts arrivals *and bytes*. It is set
//                 up for a number of arriving threads; a phase completes when all of them have
//                 arrived and every byte announced with expect_tx has landed. Waiters wait
//                 for the phase's parity (0, 1, 0, 1, ...), so a barrier is reused for every
//                 round of a ring without being set up again.
//   cp.async.bulk one thread asks the copy engine (the TMA unit) to move a contiguous run of
//                 bytes global -> shared (it reports the bytes to an mbarrier as they land) or
//                 shared -> global (tracked in "bulk groups" the thread commits and waits on).
//                 No registers, no address arithmetic per element, no threads busy moving
//                 data. Both addresses 16-byte aligned, the size a multiple of 16.
//   proxies       the copy engine reaches shared memory through the "async proxy", ordinary
//                 loads and stores through the "generic proxy". A thread that wrote shared
//                 memory with ordinary stores and wants a bulk copy to read it (or to
//                 overwrite it) first orders the two with fence.proxy.async.
//   bar.sync id   a named barrier: only the `count` threads that name it wait for each other,
//                 so some warps of a block can synchronise while the others do other jobs.
//
// Every wrapper below is a one-line call of libcu++'s cuda::ptx, which ships with the CUDA
// Toolkit and emits exactly the named PTX instruction; the waits are bounded (watchdog.cuh).
#pragma once

#include "common/watchdog.cuh"

#include <cooperative_groups.h>
#include <cuda/ptx>
#include <cuda_pipeline_primitives.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace ch12 {

using Mbarrier = std::uint64_t;

// Compiled for a GPU with bulk copies and transaction-counting mbarriers (sm_90 and later)?
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define SG_CH12_DEVICE_CODE 1
#else
#define SG_CH12_DEVICE_CODE 0
#endif

#if SG_CH12_DEVICE_CODE

__device__ __forceinline__ void init_mbarrier(Mbarrier* barrier, unsigned arrivals) { cuda::ptx::mbarrier_init(barrier, arrivals); }

// Makes the initialised mbarriers visible to the copy engine (then a __syncthreads() makes
// them visible to the block's threads).
__device__ __forceinline__ void fence_mbarrier_init() { cuda::ptx::fence_mbarrier_init(cuda::ptx::sem_release, cuda::ptx::scope_cluster); }

__device__ __forceinline__ void arrive(Mbarrier* barrier) { cuda::ptx::mbarrier_arrive(barrier); }

// Arrive, and announce `bytes` that bulk copies will deliver before this phase completes.
__device__ __forceinline__ void arrive_expect_bytes(Mbarrier* barrier, unsigned bytes) {
  cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta, cuda::ptx::space_shared, barrier, bytes);
}
// The same announcement without arriving: the thread arrives later, once its own stores into
// the stage are done (the producer's ends of a tile).
__device__ __forceinline__ void expect_bytes(Mbarrier* barrier, unsigned bytes) {
  cuda::ptx::mbarrier_expect_tx(cuda::ptx::sem_relaxed, cuda::ptx::scope_cta, cuda::ptx::space_shared, barrier, bytes);
}

// Waits until the phase of parity `parity` has completed (acquire: what the arriving threads
// wrote before arriving, and the bytes the copies delivered, are visible after it). Bounded:
// after the watchdog's limit it records the tile and gives up (returns false). It does not
// give up early when another wait somewhere gave up: a block that left its pipeline while
// bulk copies still wrote into its shared memory would turn one reported failure into a crash.
__device__ __forceinline__ bool wait_phase(Mbarrier* barrier, unsigned parity, const sg::Watchdog& dog, unsigned long long tile) {
  if (cuda::ptx::mbarrier_try_wait_parity(barrier, parity)) return true;  // try_wait itself suspends a while
  const unsigned long long start = sg::global_time_ns();
  for (unsigned tries = 1;; ++tries) {
    if (cuda::ptx::mbarrier_try_wait_parity(barrier, parity)) return true;
    if ((tries & 15u) == 0 && sg::global_time_ns() - start > dog.limit_ns) {
      dog.report(tile, tile, sg::global_time_ns() - start);
      return false;
    }
  }
}

// Clusters (sm_90): blocks launched together on SMs of one GPC, each able to read and write the
// others' shared memory (distributed shared memory). The block's rank in its cluster; the same
// variable in the shared memory of the block of rank `rank`; a store of 4 or 8 bytes there
// (st.async) that counts them on a barrier there, as a bulk copy counts its bytes (the barrier's
// waiters see the value once the phase completes; its owner announces the bytes with
// arrive_expect_bytes); and a barrier of every thread of the cluster.
__device__ __forceinline__ unsigned cluster_rank() { return cooperative_groups::this_cluster().block_rank(); }
template <typename U>
__device__ __forceinline__ U* in_cluster_block(U* local, unsigned rank) {
  return cooperative_groups::this_cluster().map_shared_rank(local, rank);
}
template <typename U>
__device__ __forceinline__ void store_to_cluster_block(U* remote, U value, Mbarrier* remote_barrier) {
  cuda::ptx::st_async(remote, value, remote_barrier);
}
__device__ __forceinline__ void cluster_sync() { cooperative_groups::this_cluster().sync(); }

// Has the phase of parity `parity` completed? (A look that does not wait: main.cu --trace.)
__device__ __forceinline__ bool phase_complete(Mbarrier* barrier, unsigned parity) {
  return cuda::ptx::mbarrier_test_wait_parity(barrier, parity);
}

// global -> shared: `bytes` from `source` land at `target`, counted against `barrier`.
__device__ __forceinline__ void bulk_load(void* target, const void* source, unsigned bytes, Mbarrier* barrier) {
  cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, target, source, bytes, barrier);
}

// shared -> global, as one more bulk group of the calling thread.
__device__ __forceinline__ void bulk_store(void* target, const void* source, unsigned bytes) {
  cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared, target, source, bytes);
}

// L2 eviction priorities: a 64-bit policy (createpolicy) that a bulk copy carries as its
// .L2::cache_hint. evict_last: the L2 keeps these lines longer than others; evict_first: it
// gives them up first. libcu++'s cuda::ptx has neither the policy nor the hinted bulk copies,
// hence the inline PTX.
__device__ __forceinline__ std::uint64_t l2_evict_last_policy() {
  std::uint64_t policy;
  asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}
__device__ __forceinline__ std::uint64_t l2_evict_first_policy() {
  std::uint64_t policy;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}
// bulk_load and bulk_store with an L2 eviction policy.
__device__ __forceinline__ void bulk_load(void* target, const void* source, unsigned bytes, Mbarrier* barrier, std::uint64_t policy) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;"
               :
               : "r"(static_cast<unsigned>(__cvta_generic_to_shared(target))), "l"(source), "r"(bytes),
                 "r"(static_cast<unsigned>(__cvta_generic_to_shared(barrier))), "l"(policy)
               : "memory");
}
__device__ __forceinline__ void bulk_store(void* target, const void* source, unsigned bytes, std::uint64_t policy) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%0], [%1], %2, %3;"
               :
               : "l"(target), "r"(static_cast<unsigned>(__cvta_generic_to_shared(source))), "r"(bytes), "l"(policy)
               : "memory");
}
__device__ __forceinline__ void commit_bulk_stores() { cuda::ptx::cp_async_bulk_commit_group(); }
// Until at most kPending of the calling thread's bulk groups are still reading shared memory.
template <int kPending>
__device__ __forceinline__ void wait_bulk_store_reads() {
  cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<kPending>{});
}

// global -> shared, 16 bytes, by this thread through the load/store units (cp.async, sm_80 on):
// the way to fill a stage without the copy engine (the sweep's thread loads).
__device__ __forceinline__ void copy_16_bytes_async(void* target, const void* source) { __pipeline_memcpy_async(target, source, 16); }
// One arrival on `barrier` once this thread's earlier cp.async copies have landed (counted in
// the barrier's arrivals, not announced as bytes).
__device__ __forceinline__ void arrive_when_copies_land(Mbarrier* barrier) { cuda::ptx::cp_async_mbarrier_arrive_noinc(barrier); }

// Orders this thread's ordinary shared-memory accesses before later bulk copies' accesses.
__device__ __forceinline__ void fence_shared_for_bulk_copies() { cuda::ptx::fence_proxy_async(cuda::ptx::space_shared); }

#endif  // SG_CH12_DEVICE_CODE

// A barrier over the first kThreads threads of the block (barrier 0 is __syncthreads()).
template <int kId, int kThreads>
struct NamedBarrier {
  static_assert(kId > 0 && kId < 16 && kThreads % 32 == 0, "named barriers 1-15, whole warps");
  __device__ static void sync() { asm volatile("bar.sync %0, %1;" ::"n"(kId), "n"(kThreads) : "memory"); }
};

// The ticket of a persistent grid. Every block draws tickets until it draws one past the last
// tile, so a launch draws tiles + gridDim.x tickets in all; the block that draws the very last
// one puts the counter back to 0 for the next launch (chapter 09's self-resetting ticket, for
// blocks that take many tiles). Tickets come out in the order blocks ask, so every tile's
// predecessors belong to blocks already running: the look-back cannot wait for a block that
// never started, however many of the grid's blocks are resident.
struct PersistentTicket {
  unsigned long long* counter;
  unsigned long long tiles;

  __device__ unsigned long long draw() const {
    const unsigned long long ticket = atomicAdd(counter, 1ull);
    if (ticket == tiles + gridDim.x - 1) atomicExch(counter, 0ull);
    return ticket;
  }
};

// (testing) The most blocks one launch of this chapter's persistent grids may have; 0: as many as
// the GPU holds at once. With a few blocks, a small array goes round every block's ring many
// times, so that compute-sanitizer, too slow for large arrays, sees every stage reused
// (main.cu --grid, test.cu). Tiles are dealt among the blocks there are, or drawn by them.
inline unsigned& grid_limit() {
  static unsigned limit = 0;
  return limit;
}

// The grid of a launch: one block per tile (or run of tiles) up to the resident blocks, or the limit.
inline unsigned persistent_grid(unsigned long long runs, unsigned resident) {
  unsigned long long grid = runs < resident ? runs : resident;
  if (grid_limit() > 0 && grid > grid_limit()) grid = grid_limit();
  return static_cast<unsigned>(grid);
}

}  // namespace ch12

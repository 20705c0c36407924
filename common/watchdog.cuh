// common/watchdog.cuh - bounded waits: a block that waits for another block never hangs.
//
// From chapter 08 on, blocks wait for each other: a tile spins until a predecessor has
// published its prefix. If the predecessor never runs (it is not resident, and cannot become
// resident while we spin: chapter 08's forward-progress lesson) or never publishes (a bug),
// an unbounded spin hangs the GPU until the driver kills the context. Every wait on another
// block in the gallery is bounded instead:
//
//   host:    kernel<<<...>>>(..., sg::watchdog());       // a small by-value handle
//   device:  sg::WaitBudget budget(dog);
//            while (!ready())
//              if (!budget.keep_waiting(tile, waiting_for)) break;   // gave up: stop waiting
//   host:    after synchronising, sg::stuck_wait_report() says which tile got stuck
//
// A wait gives up after `limit_ns` (SG_WATCHDOG_MS, default 2000 ms: far above any honest
// wait, which takes microseconds, even under compute-sanitizer), records the first stuck tile
// and sets a flag that makes every later wait, in any block, give up at once: a deadlocked
// launch then ends after about one limit, not one limit per tile. Its output is garbage; the
// harness (bench.cuh, the suite runner, the tests) reports the record instead.
#pragma once

#include "common/check.cuh"
#include "common/device_buffer.cuh"

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>

namespace sg {

struct StuckWaitRecord {
  unsigned int stuck;  // waits that gave up (0: none)
  unsigned int unused;
  unsigned long long tile, waiting_for, waited_ns;
};

// The device clock in nanoseconds (%globaltimer: the same for every SM).
__device__ __forceinline__ unsigned long long global_time_ns() {
  unsigned long long ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

struct Watchdog {
  StuckWaitRecord* record = nullptr;
  unsigned long long limit_ns = 0;

  __device__ bool somebody_gave_up() const { return *reinterpret_cast<volatile unsigned int*>(&record->stuck) != 0; }

  __device__ void report(unsigned long long tile, unsigned long long waiting_for, unsigned long long waited_ns) const {
    if (atomicAdd(&record->stuck, 1u) == 0) {  // the first one to give up writes the details
      record->tile = tile;
      record->waiting_for = waiting_for;
      record->waited_ns = waited_ns;
    }
  }
};

// One wait's budget. Call keep_waiting() after every poll that found nothing.
class WaitBudget {
 public:
  __device__ explicit WaitBudget(const Watchdog& dog) : dog_(dog), start_(global_time_ns()) {}

  __device__ bool keep_waiting(unsigned long long tile, unsigned long long waiting_for) {
    if ((++polls_ & 31u) != 0) return true;  // look at the clock (and the flag) every 32 polls
    if (dog_.somebody_gave_up()) return false;
    const unsigned long long waited = global_time_ns() - start_;
    if (waited < dog_.limit_ns) return true;
    dog_.report(tile, waiting_for, waited);
    return false;
  }

 private:
  Watchdog dog_;
  unsigned long long start_;
  unsigned int polls_ = 0;
};

namespace detail {
// One record per GPU (chapter 11 runs one process over several): a kernel writes its own.
inline std::map<int, DeviceBuffer<StuckWaitRecord>>& stuck_wait_records() {
  static std::map<int, DeviceBuffer<StuckWaitRecord>> per_device;
  return per_device;
}
inline DeviceBuffer<StuckWaitRecord>& stuck_wait_record() {
  auto& records = stuck_wait_records();
  auto found = records.find(current_device());
  if (found == records.end()) {
    DeviceBuffer<StuckWaitRecord> buffer(1);
    SG_CUDA(cudaMemset(buffer.data(), 0, sizeof(StuckWaitRecord)));
    found = records.emplace(current_device(), std::move(buffer)).first;
  }
  return found->second;
}
}  // namespace detail

inline unsigned long long watchdog_limit_ns() {
  const char* text = std::getenv("SG_WATCHDOG_MS");
  const unsigned long long ms = text != nullptr && std::atoll(text) > 0 ? static_cast<unsigned long long>(std::atoll(text)) : 2000ull;
  return ms * 1000000ull;
}

// The handle a launcher passes to its kernel (limit_ms = 0: the default limit).
inline Watchdog watchdog(unsigned long long limit_ms = 0) {
  Watchdog dog;
  dog.record = detail::stuck_wait_record().data();
  dog.limit_ns = limit_ms > 0 ? limit_ms * 1000000ull : watchdog_limit_ns();
  return dog;
}

// After the device is synchronised: "" if no wait on the current GPU gave up since the last
// call, otherwise a message naming the stuck tile. Clears the record.
inline std::string stuck_wait_report() {
  if (detail::stuck_wait_records().count(current_device()) == 0) return "";
  StuckWaitRecord record{};
  SG_CUDA(cudaMemcpy(&record, detail::stuck_wait_record().data(), sizeof record, cudaMemcpyDeviceToHost));
  if (record.stuck == 0) return "";
  SG_CUDA(cudaMemset(detail::stuck_wait_record().data(), 0, sizeof record));
  // record.stuck counts the waits that reached the limit themselves; every other wait gave up
  // as soon as it saw the flag, without a record of its own.
  return "stuck wait: tile " + std::to_string(record.tile) + " waited " + std::to_string(record.waited_ns / 1000000ull) +
         " ms for tile " + std::to_string(record.waiting_for) + " and gave up (" + std::to_string(record.stuck) +
         " wait(s) reached the limit, every other waiting tile then stopped at once); the output is invalid";
}

}  // namespace sg

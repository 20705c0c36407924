// common/timer.cuh - time device work with CUDA events: warm-up, repetitions, median and min.
//
//   sg::Timing t = sg::time_device([&](int rep) { launch(in[rep % sets], out[rep % sets]); },
//                                  /*warmup=*/5, /*iters=*/50, stream);
//
// Each repetition sits between its own pair of events, so the median ignores the odd slow
// run (a clock ramping up, another process) and the min shows the best case. run(rep)
// receives the repetition number, which callers use to rotate between several input and
// output buffers (see rotation_sets): a small problem repeated on one buffer would be
// served from the L2 cache (50-60 MB on an H100/H200) and measure the cache, not device memory.
#pragma once

#include "common/check.cuh"

#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <vector>

namespace sg {

struct Timing {
  double median_ms = 0.0;
  double min_ms = 0.0;
  int runs = 0;
};

inline double median_of(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

// How many input/output buffer sets to rotate between so that together they are at
// least three times the L2 cache: enough that each run starts with a cold cache.
inline int rotation_sets(std::size_t bytes_per_set, std::size_t l2_bytes, int most = 32) {
  if (bytes_per_set == 0) return 1;
  const std::size_t wanted = (3 * l2_bytes + bytes_per_set - 1) / bytes_per_set;
  return static_cast<int>(std::max<std::size_t>(1, std::min<std::size_t>(wanted, static_cast<std::size_t>(most))));
}

// A CUDA event that destroys itself.
class Event {
 public:
  Event() { SG_CUDA(cudaEventCreate(&event_)); }
  ~Event() { cudaEventDestroy(event_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  operator cudaEvent_t() const { return event_; }

 private:
  cudaEvent_t event_{};
};

template <typename Run>
Timing time_device(Run&& run, int warmup, int iters, cudaStream_t stream) {
  for (int rep = 0; rep < warmup; ++rep) run(rep);
  SG_CUDA(cudaStreamSynchronize(stream));

  std::vector<Event> start(iters), stop(iters);
  nvtxRangePushA("timed repetitions");
  for (int i = 0; i < iters; ++i) {
    SG_CUDA(cudaEventRecord(start[i], stream));
    run(warmup + i);
    SG_CUDA(cudaEventRecord(stop[i], stream));
  }
  SG_CUDA(cudaStreamSynchronize(stream));
  nvtxRangePop();

  std::vector<double> milliseconds(iters);
  for (int i = 0; i < iters; ++i) {
    float ms = 0.0f;
    SG_CUDA(cudaEventElapsedTime(&ms, start[i], stop[i]));
    milliseconds[i] = ms;
  }
  Timing timing;
  timing.runs = iters;
  timing.median_ms = median_of(milliseconds);
  timing.min_ms = *std::min_element(milliseconds.begin(), milliseconds.end());
  return timing;
}

// The same statistics for host code (the CPU reference), with a wall clock.
template <typename Run>
Timing time_host(Run&& run, int warmup, int iters) {
  for (int rep = 0; rep < warmup; ++rep) run();
  std::vector<double> milliseconds(iters);
  for (int i = 0; i < iters; ++i) {
    const auto start = std::chrono::steady_clock::now();
    run();
    milliseconds[i] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }
  Timing timing;
  timing.runs = iters;
  timing.median_ms = median_of(milliseconds);
  timing.min_ms = *std::min_element(milliseconds.begin(), milliseconds.end());
  return timing;
}

}  // namespace sg

// Chapter 08 - the two ways a chained scan goes wrong, shown on the GPU without harm.
//
// race_demo             the racy publication (tile_status.cuh: value then flag, plain
//                       stores and loads), run many times; every output is compared with
//                       CUB's. A race shows up as some wrong runs, or none this time:
//                       a race is a possibility, not a certainty.
// forward_progress_demo tiles in *reversed* block order, as a scheduler that started the
//                       last blocks first would give them, over four times as many tiles as
//                       fit on the GPU at once. The resident blocks wait for tiles whose
//                       blocks cannot start: a deadlock. The watchdog turns it into an
//                       error after limit_ms, naming the tile. Then the same input with a
//                       ticket: every wait ends, the output is right.
// Both use int32 sums, the packed status (except the racy one) and the default geometry.
#pragma once

#include "08_chained_scan/chained_scan.cuh"
#include "common/device_oracle.cuh"
#include "common/operators.hpp"

#include <cstdint>
#include <string>

namespace ch08 {

struct RaceDemo {
  int runs = 0, wrong_runs = 0;
  unsigned long long wrong_elements = 0;
};

inline RaceDemo race_demo(std::size_t n, int runs, std::uint64_t seed) {
  using T = std::int32_t;
  using Op = sg::Sum;
  sg::DeviceBuffer<T> in(n), out(n);
  sg::DeviceOracle<T, Op> oracle(n);
  sg::fill_random<T, Op>(in.data(), n, seed, nullptr);
  const T* expected = oracle.expected(sg::Computes::InclusiveScan, in.data(), n, nullptr);
  RaceDemo demo;
  for (int run = 0; run < runs; ++run) {
    sg::poison(out);
    launch_chained_scan<T, Op, false, RacyStatus, TileOrder::kTicket, kDefaultThreads, kDefaultBytesPerThread>(in.data(), out.data(), n,
                                                                                                             nullptr, sg::watchdog());
    SG_CUDA(cudaDeviceSynchronize());
    sg::stuck_wait_report();  // a wrong value can also leave a wait stuck; the comparison says it all
    const sg::DeviceComparison result = oracle.compare(out.data(), expected, n, nullptr);
    ++demo.runs;
    if (result.mismatches > 0) ++demo.wrong_runs;
    demo.wrong_elements += result.mismatches;
  }
  return demo;
}

struct ProgressDemo {
  std::size_t tiles = 0, resident = 0;
  std::string reversed;  // the watchdog's report for the reversed order ("" if it got through)
  bool ticket_correct = false;
};

inline ProgressDemo forward_progress_demo(unsigned long long limit_ms, std::uint64_t seed) {
  using T = std::int32_t;
  using Op = sg::Sum;
  constexpr int kItems = ch05::kItemsPerThread<T, kDefaultBytesPerThread>;
  constexpr std::size_t kTile = kTileItems<T, kDefaultThreads, kDefaultBytesPerThread>;
  ProgressDemo demo;
  demo.resident = sg::resident_blocks(
      chained_scan_kernel<T, Op, false, PackedStatus<T>, TileOrder::kReversedBlockIndex, kDefaultThreads, kItems>, kDefaultThreads);
  demo.tiles = 4 * demo.resident;
  const std::size_t n = demo.tiles * kTile;
  sg::DeviceBuffer<T> in(n), out(n);
  sg::DeviceOracle<T, Op> oracle(n);
  sg::fill_random<T, Op>(in.data(), n, seed, nullptr);
  const T* expected = oracle.expected(sg::Computes::InclusiveScan, in.data(), n, nullptr);

  sg::poison(out);
  launch_chained_scan<T, Op, false, PackedStatus, TileOrder::kReversedBlockIndex, kDefaultThreads, kDefaultBytesPerThread>(
      in.data(), out.data(), n, nullptr, sg::watchdog(limit_ms));
  SG_CUDA(cudaDeviceSynchronize());
  demo.reversed = sg::stuck_wait_report();

  sg::poison(out);
  launch_chained_scan<T, Op, false, PackedStatus, TileOrder::kTicket, kDefaultThreads, kDefaultBytesPerThread>(
      in.data(), out.data(), n, nullptr, sg::watchdog(limit_ms));
  SG_CUDA(cudaDeviceSynchronize());
  demo.ticket_correct = sg::stuck_wait_report().empty() && oracle.compare(out.data(), expected, n, nullptr).mismatches == 0;
  return demo;
}

}  // namespace ch08

// Chapter 12 - where the time goes (main.cu --trace): the copy through the stages by ticket, steps
// 5 to 10 (and step 10 dealt), the one-block-per-SM kernels of steps 12 to 15 (step 12's as the
// sweep's scan_without_block_barriers, and also scanning each tile when it lands), and the sweep's
// tile pairs, two look-back warps with packed status words, one with spread words, tiles by ticket
// (step 6; step 8's, drawn a tile ahead), a status word per pair of tiles, look-backs that publish
// the P's of the tiles they passed (spread and packed status words), the grid's prefix warp (spread
// and packed status words; 16 slabs a round; a run of 8 tiles per lane), the lag held in the L2
// (dealt round-robin and by ticket), and step 9 with 64 tiles per look or its last two rounds by
// ticket, and steps 9 and 10 with the compute warps looking back at the end (32 or 256 tiles per
// look), int32 sums, with their warps timing their waits (Traced<Design> in warp_specialized.cuh);
// --variant picks among them as it picks the table's rows. Per design and size, one row:
//
//   windows        windows of status words the look-back read per look-back (1 + slides
//                  back); a look-back per tile, or per run of K tiles (tile pairs, a status
//                  word per pair)
//   repolls        looks again at a window, per look-back, because a tile it needs was in X
//   ns/look        the look-back's time per look (each a round trip to the L2): the loaded
//                  latency of a status word
//   lookback ns    per look-back, against one block's time for the K tiles of a look-back:
//                  their ratio (over W look-back warps) is how busy a look-back warp is
//   load latency   issue to landing of the loads the compute warps had to wait for
//   waits          the compute warps' time waiting for tiles to land, and for prefixes
//   prefix warp    (its rows only) the tiles it turned into P's per round trip, and its rounds
//   rereads        (the lag in the L2) the compute warps' time waiting for a tile's reread
//   timeline       the last launch, per block, in us from the first block's start: its start,
//                  its first tile landed, its last aggregate published, its end (first, median
//                  and last block of each), and the launch's median time from CUDA events
//   aggregates     (a look-back per tile) from the last launch's records of each tile: its load
//                  to its aggregate, the look-backs that began before the aggregate of the tile
//                  before was out, and whether those aggregates were late because their tile
//                  landed late or because their SM's compute warps came to it late; and what a
//                  look-back found when it began: how far back the nearest P was, and whether the
//                  aggregates of its first window were out
//   tiles per SM   (tiles by ticket only) each SM's share of the tiles, over 2 x 10 launches
//                  (alternate launches in each half): the halves' shares agree when the share
//                  belongs to the SM, not to the launch. A share is what an SM drew while every
//                  SM competed, not a pace it keeps when tiles are dealt in advance (experiments.md)
//
// One more row traces the copy through the stages by ticket (checked as a copy): the SMs'
// shares with nothing but data movement, the ceiling of experiments.md.
//
// The README's Little's-law section is built from these rows on both GPUs. Timing changes
// what it times a little (a clock read around every wait); the rows are for proportions, the
// timed table for speed.
#pragma once

#include "12_warp_specialized_scan/warp_specialized.cuh"
#include "common/device_buffer.cuh"
#include "common/device_info.cuh"
#include "common/device_oracle.cuh"
#include "common/flags.hpp"
#include "common/timer.cuh"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace ch12 {

// The time from one %globaltimer stamp to a later one, in us. Subtract first: a stamp counts
// nanoseconds since 1970 (above 2^60), where a double steps by 256 ns.
inline double us_between(unsigned long long earlier, unsigned long long later) {
  return static_cast<double>(static_cast<long long>(later - earlier)) * 1e-3;
}

// The q-quantile of v (0.5: the median; 0 for no values). Sorts v.
inline double quantile(std::vector<double>& v, double q) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size())))];
}

// The last launch's timeline: per block, its start, its first tile landed, its last aggregate
// published and its end, in microseconds from the first block's start; the first, median and last
// block of each. Where a launch's fixed cost goes: starting, filling the ring, draining it. Only
// the blocks that ran count: below one tile (or run of tiles) per resident block, the grid is
// smaller, and the other entries stay 0 from the trace's memset.
inline void print_timeline(const Trace& trace, double timed_ms) {
  std::vector<int> ran;
  for (int b = 0; b < Trace::kTimelineBlocks; ++b)
    if (trace.started_ns[b] != 0) ran.push_back(b);
  if (ran.empty()) return;
  unsigned long long origin = trace.started_ns[ran.front()];
  for (int b : ran) origin = std::min(origin, trace.started_ns[b]);
  auto spread = [&](const unsigned long long* ns) {
    std::vector<double> us;
    for (int b : ran)
      if (ns[b] != 0) us.push_back(us_between(origin, ns[b]));
    if (us.empty()) return std::string("-");  // (the copy through the stages publishes no aggregates)
    std::sort(us.begin(), us.end());
    char text[64];
    std::snprintf(text, sizeof text, "%.1f / %.1f / %.1f", us.front(), us[us.size() / 2], us.back());
    return std::string(text);
  };
  std::printf("%12s timeline, us (first / median / last block): start %s, first tile landed %s, last aggregate %s, last prefix %s, "
              "end %s; the launch timed %.1f\n",
              "", spread(trace.started_ns).c_str(), spread(trace.first_landed_ns).c_str(), spread(trace.last_reduced_ns).c_str(),
              spread(trace.last_prefix_ns).c_str(), spread(trace.ended_ns).c_str(), timed_ms * 1e3);
  // the start of a block: its first store, and its first lap of scans (as many tiles as stages),
  // with the compute warps' waits for prefixes and for loads until then
  std::vector<double> start_prefix_us, start_load_us;
  for (int b : ran)
    if (trace.lap_scanned_ns[b] != 0) {
      start_prefix_us.push_back(static_cast<double>(trace.start_prefix_wait_ns[b]) * 1e-3);
      start_load_us.push_back(static_cast<double>(trace.start_load_wait_ns[b]) * 1e-3);
    }
  // the end of a block, from its last aggregate: how much of it the compute warps waited for the
  // lag's prefixes; the rest they scanned and stored the lag
  std::vector<double> end_us, waited_us, stored_us;
  for (int b : ran)
    if (trace.last_reduced_ns[b] != 0) {
      end_us.push_back(us_between(trace.last_reduced_ns[b], trace.ended_ns[b]));
      waited_us.push_back(static_cast<double>(trace.end_prefix_wait_ns[b]) * 1e-3);
      stored_us.push_back(static_cast<double>(trace.end_store_ns[b]) * 1e-3);
    }
  auto median = [](std::vector<double>& v) { return quantile(v, 0.5); };
  if (!start_prefix_us.empty())
    std::printf("%12s the start, us (first / median / last block): the lag's last tile landed %s, the first prefix came %s, first store "
                "issued %s, a lap of tiles scanned %s; until then (median block) %.1f waiting for prefixes, %.1f for loads\n",
                "", spread(trace.lag_landed_ns).c_str(), spread(trace.first_prefix_ns).c_str(), spread(trace.first_store_ns).c_str(),
                spread(trace.lap_scanned_ns).c_str(), median(start_prefix_us), median(start_load_us));
  if (!end_us.empty())
    std::printf("%12s the end, us (median block): %.1f from the last aggregate to the end; of it %.1f waiting for the lag's prefixes, "
                "%.1f storing (a barrier, the bulk store issued, the store before it waited for)\n",
                "", median(end_us), median(waited_us), median(stored_us));
}

// The aggregates' timing, from the last launch's per-tile records (its first kTracedTiles tiles):
// how long a tile took from its load to its aggregate, whether the look-back of the tile after it
// began before that aggregate was out, and, for the aggregates that came late, whether their tile
// had landed late (the compute warps waited for it) or waited in its stage for the compute warps,
// and how long those had waited for prefixes in the scans since their ask before. Times in us,
// medians (p90 in brackets). The timer's step is printed, as the smallest gap between two tiles'
// stamps.
inline void print_aggregates(const Trace& trace, std::size_t tiles) {
  const std::size_t count = std::min<std::size_t>(tiles, Trace::kTracedTiles);
  auto recorded = [&](std::size_t t) {
    return trace.tile_issued_ns[t] != 0 && trace.tile_had_ns[t] != 0 && trace.tile_reduced_ns[t] != 0 && trace.tile_looked_ns[t] != 0;
  };
  std::vector<double> landed_waited, landed_early, reduce, lookback, late_by, after_late, lookback_on_time, late_issued_to_out,
      all_issued_to_out, late_scan_waits, all_scan_waits;
  std::size_t traced = 0, waited = 0, look_backs = 0, late = 0, late_landed_late = 0;
  std::vector<unsigned long long> stamps;
  for (std::size_t t = 1; t < count; ++t) {
    if (!recorded(t)) continue;
    ++traced;
    stamps.push_back(trace.tile_had_ns[t]);
    (trace.tile_waited[t] ? landed_waited : landed_early).push_back(us_between(trace.tile_issued_ns[t], trace.tile_had_ns[t]));
    waited += trace.tile_waited[t];
    reduce.push_back(us_between(trace.tile_had_ns[t], trace.tile_reduced_ns[t]));
    all_issued_to_out.push_back(us_between(trace.tile_issued_ns[t], trace.tile_reduced_ns[t]));
    all_scan_waits.push_back(static_cast<double>(trace.tile_scan_waits_ns[t]) * 1e-3);
    const std::size_t j = t - 1;  // the tile before: another SM's
    if (j == 0 || !recorded(j)) continue;
    ++look_backs;
    lookback.push_back(us_between(trace.tile_looked_ns[t], trace.tile_resolved_ns[t]));
    if (trace.tile_reduced_ns[j] > trace.tile_looked_ns[t]) {
      ++late;
      late_by.push_back(us_between(trace.tile_looked_ns[t], trace.tile_reduced_ns[j]));
      after_late.push_back(us_between(trace.tile_reduced_ns[j], trace.tile_resolved_ns[t]));
      late_issued_to_out.push_back(us_between(trace.tile_issued_ns[j], trace.tile_reduced_ns[j]));
      late_scan_waits.push_back(static_cast<double>(trace.tile_scan_waits_ns[j]) * 1e-3);
      late_landed_late += trace.tile_waited[j];
    } else {
      lookback_on_time.push_back(us_between(trace.tile_looked_ns[t], trace.tile_resolved_ns[t]));
    }
  }
  if (traced == 0 || look_backs == 0) return;
  auto pct = [](std::size_t a, std::size_t b) { return b == 0 ? 0.0 : 100.0 * static_cast<double>(a) / static_cast<double>(b); };
  std::sort(stamps.begin(), stamps.end());
  unsigned long long step = 0;
  for (std::size_t i = 1; i < stamps.size(); ++i)
    if (stamps[i] > stamps[i - 1] && (step == 0 || stamps[i] - stamps[i - 1] < step)) step = stamps[i] - stamps[i - 1];
  std::printf("%12s the aggregates (tiles 1 to %zu of the last launch; us, median [p90]; the timer's step %llu ns): the compute warps waited "
              "for %.0f%% of the tiles, which landed %.2f [%.2f] after their load was issued; the others had landed when asked, %.2f [%.2f] "
              "after it; the reduce, %.2f [%.2f] from the tile to its aggregate\n",
              "", traced, step, pct(waited, traced), quantile(landed_waited, 0.5), quantile(landed_waited, 0.9), quantile(landed_early, 0.5),
              quantile(landed_early, 0.9), quantile(reduce, 0.5), quantile(reduce, 0.9));
  const double late_by_median = quantile(late_by, 0.5), late_by_p90 = quantile(late_by, 0.9);
  std::printf("%12s the look-backs: %.0f%% began before the aggregate of the tile before was out, by %.2f [%.2f], and took %.2f [%.2f] "
              "after it; the others took %.2f [%.2f]; all, %.2f [%.2f]\n",
              "", pct(late, look_backs), late_by_median, late_by_p90, quantile(after_late, 0.5), quantile(after_late, 0.9), quantile(lookback_on_time, 0.5),
              quantile(lookback_on_time, 0.9), quantile(lookback, 0.5), quantile(lookback, 0.9));
  std::printf("%12s the late aggregates: %.2f [%.2f] from their load's issue to the aggregate, against %.2f [%.2f] for every tile; "
              "%.0f%% of their tiles landed after the compute warps asked; before the ask, those had waited %.2f [%.2f] for prefixes since "
              "their ask before (every tile: %.2f [%.2f])\n",
              "", quantile(late_issued_to_out, 0.5), quantile(late_issued_to_out, 0.9), quantile(all_issued_to_out, 0.5), quantile(all_issued_to_out, 0.9),
              pct(late_landed_late, late), quantile(late_scan_waits, 0.5), quantile(late_scan_waits, 0.9), quantile(all_scan_waits, 0.5), quantile(all_scan_waits, 0.9));
}

// What a look-back found when it began, from the same records. The P's: the nearest tile before
// it whose P was out (a P is out when that tile's look-back resolved; tile 0 publishes its P with
// its aggregate), which its windows of `window` tiles must reach. The A's: when the last
// aggregate of its first window was published, against the beginning of the look-back. A look
// that reads an aggregate less than one round trip (ns_per_look) after it was published may find
// it still in X, and look again; one that began before it was published finds it in X: how many
// of its first window were, and how far back the last of them was.
inline void print_look_back_inputs(const Trace& trace, std::size_t tiles, double ns_per_look, int window) {
  const std::size_t count = std::min<std::size_t>(tiles, Trace::kTracedTiles);
  auto recorded = [&](std::size_t t) {
    return trace.tile_reduced_ns[t] != 0 && (t == 0 || (trace.tile_looked_ns[t] != 0 && trace.tile_resolved_ns[t] != 0));
  };
  auto p_out = [&](std::size_t t) { return t == 0 ? trace.tile_reduced_ns[0] : trace.tile_resolved_ns[t]; };
  std::vector<double> front, took[3], last_back;  // took: [last A out more than a round trip before, less, after the look-back began]
  std::size_t in_class[3] = {0, 0, 0}, look_backs = 0, in_x = 0;
  for (std::size_t t = static_cast<std::size_t>(window); t < count; ++t) {
    if (!recorded(t)) continue;
    const unsigned long long looked = trace.tile_looked_ns[t];
    unsigned long long last_a = 0;
    std::size_t last = 0, x = 0;  // the tile whose A came last; the tiles in X when the look-back began
    bool complete = true;
    for (std::size_t j = t - static_cast<std::size_t>(window); j < t && complete; ++j) {
      complete = recorded(j);
      if (trace.tile_reduced_ns[j] >= last_a) last_a = trace.tile_reduced_ns[j], last = j;
      x += trace.tile_reduced_ns[j] > looked;
    }
    std::size_t j = t;  // the nearest P out: tile j - 1's
    while (j > 0 && recorded(j - 1) && !(p_out(j - 1) <= looked)) --j;
    if (!complete || j == 0 || !recorded(j - 1)) continue;
    ++look_backs;
    front.push_back(static_cast<double>(t - (j - 1)));
    const double slack = us_between(last_a, looked) * 1e3;
    const int c = slack >= ns_per_look ? 0 : slack >= 0 ? 1 : 2;
    ++in_class[c], in_x += x;
    if (c == 2) last_back.push_back(static_cast<double>(t - last));
    took[c].push_back(us_between(looked, trace.tile_resolved_ns[t]));
  }
  if (look_backs == 0 || !(ns_per_look > 0)) return;
  auto pct = [&](std::size_t a) { return 100.0 * static_cast<double>(a) / static_cast<double>(look_backs); };
  std::printf("%12s what a look-back found when it began (a look's round trip %.0f ns): the nearest P out, %.0f [%.0f] tiles back; the last "
              "aggregate of its first %d tiles out more than a round trip before for %.0f%% (which took %.2f [%.2f]), less for %.0f%% "
              "(%.2f [%.2f]), not yet for %.0f%% (%.2f [%.2f]; the last %.0f [%.0f] tiles back; %.1f tiles of the first window in X per "
              "look-back)\n",
              "", ns_per_look, quantile(front, 0.5), quantile(front, 0.9), window, pct(in_class[0]), quantile(took[0], 0.5),
              quantile(took[0], 0.9), pct(in_class[1]), quantile(took[1], 0.5), quantile(took[1], 0.9), pct(in_class[2]),
              quantile(took[2], 0.5), quantile(took[2], 0.9), quantile(last_back, 0.5), quantile(last_back, 0.9),
              static_cast<double>(in_x) / static_cast<double>(look_backs));
}

// Tiles by ticket: each SM's share of the tiles (its blocks' tiles over the mean per SM), from
// kLaunches launches in two halves. A block lands on a different SM at each launch, so every
// launch is read back on its own.
template <typename D, Geometry (*kGeometry)(const DeviceLimits&)>
void print_tiles_per_sm(const std::int32_t* in, std::int32_t* out, std::size_t n, Trace* trace, int sm_count) {
  constexpr int kLaunches = 20;
  cudaStream_t stream = nullptr;
  std::vector<std::vector<double>> halves(2, std::vector<double>(static_cast<std::size_t>(sm_count), 0.0));
  std::vector<unsigned> sm(Trace::kTimelineBlocks), tiles(Trace::kTimelineBlocks);
  for (int launch = 0; launch < kLaunches; ++launch) {
    SG_CUDA(cudaMemsetAsync(trace, 0, sizeof(Trace), stream));
    launch_warp_specialized<std::int32_t, sg::Sum, false, Traced<D>, kGeometry>(in, out, n, stream, trace);
    SG_CUDA(cudaMemcpy(sm.data(), trace->sm_of_block, sizeof(unsigned) * sm.size(), cudaMemcpyDeviceToHost));
    SG_CUDA(cudaMemcpy(tiles.data(), trace->tiles_of_block, sizeof(unsigned) * tiles.size(), cudaMemcpyDeviceToHost));
    for (std::size_t b = 0; b < sm.size(); ++b)
      if (tiles[b] != 0 && sm[b] < halves[0].size()) halves[launch % 2][sm[b]] += tiles[b];
  }
  std::vector<double> share(halves[0].size());
  double mean = 0;
  for (std::size_t i = 0; i < share.size(); ++i) mean += share[i] = halves[0][i] + halves[1][i];
  mean /= static_cast<double>(share.size());
  std::vector<double> sorted = share;
  std::sort(sorted.begin(), sorted.end());
  const auto above = std::count_if(share.begin(), share.end(), [&](double x) { return x > 1.1 * mean; });
  // Pearson's correlation of the two halves' per-SM tiles
  auto average = [](const std::vector<double>& v) { double sum = 0; for (double x : v) sum += x; return sum / static_cast<double>(v.size()); };
  const double a = average(halves[0]), b = average(halves[1]);
  double ab = 0, aa = 0, bb = 0;
  for (std::size_t i = 0; i < share.size(); ++i) {
    ab += (halves[0][i] - a) * (halves[1][i] - b);
    aa += (halves[0][i] - a) * (halves[0][i] - a);
    bb += (halves[1][i] - b) * (halves[1][i] - b);
  }
  std::printf("%12s tiles per SM, %d launches: min / median / max of the mean %.3f / %.3f / %.3f; %lld SMs above 1.1x; "
              "the two halves' shares correlate %.3f\n",
              "", kLaunches, sorted.front() / mean, sorted[sorted.size() / 2] / mean, sorted.back() / mean, static_cast<long long>(above),
              aa > 0 && bb > 0 ? ab / std::sqrt(aa * bb) : 0.0);
}

// One row per size for one design D, run with its clocks on (with the geometry kGeometry).
template <typename D, Geometry (*kGeometry)(const DeviceLimits&) = device_geometry<std::int32_t>>
bool print_trace_rows(const char* name, const sg::Options& options, const sg::DeviceInfo& device) {
  if (!sg::variant_selected(options, name)) return true;  // --variant picks the rows traced too
  using T = std::int32_t;
  constexpr auto kScan = launch_warp_specialized<T, sg::Sum, false, Traced<D>, kGeometry>;
  const Geometry geometry = kGeometry(device_limits(device.ordinal));
  std::printf("\n--trace: %s, int32 sum, %d blocks/SM x %d SMs, %d stages of %d KiB, lag %d, %d tiles per look, %d tiles per look-back\n", name,
              geometry.blocks_per_sm, device.sm_count, geometry.stages, kTileBytes<D> / 1024, geometry.lag, 32 * D::kLookBackTilesPerLane,
              D::kTilesPerLookBack);
  if (D::kScanBuffers > 0)
    std::printf("(the lag in the L2: %d of the stages load, %d are scan buffers; %d slots)\n", geometry.stages - D::kScanBuffers, D::kScanBuffers,
                D::kLagSlots);
  std::printf("%12s %8s %8s %8s %8s %8s %8s %11s %11s %6s %10s %8s %10s\n", "n", "tiles", "x copy*", "GB/s", "windows", "repolls",
              "ns/look", "lookback ns", "block ns", "busy", "load ns", "loads", "waits for");
  std::printf("%12s %8s %8s %8s %8s %8s %8s %11s %11s %6s %10s %8s %10s\n", "", "", "", "", "/lookback", "/lookback", "", "/lookback",
              "/K tiles", "", "(waited)", "waited", "load/pfx");
  cudaStream_t stream = nullptr;
  for (std::size_t n : options.sizes) {
    if (n == 0) continue;
    if (2 * n * sizeof(T) > device.free_bytes) throw std::invalid_argument("--trace: n = " + std::to_string(n) + " does not fit");
    sg::DeviceBuffer<T> in(n), out(n);
    sg::DeviceBuffer<Trace> trace(1);
    sg::fill_random<T, sg::Sum>(in.data(), n, options.seed, stream);
    auto traced = [&](int) { kScan(in.data(), out.data(), n, stream, trace.data()); };
    // the copy into the scan's own output, as the timed table does. (On the H200 this copy
    // has run 5-12% slower than the timed table's copy of the same n, cause not found: the
    // traced x copy is a guide, the timed table the speed.)
    auto copied = [&](int) { SG_CUDA(cudaMemcpyAsync(out.data(), in.data(), n * sizeof(T), cudaMemcpyDeviceToDevice, stream)); };
    const sg::Timing copy_time = sg::time_device(copied, 3, 10, stream);
    traced(0);
    SG_CUDA(cudaMemsetAsync(trace.data(), 0, sizeof(Trace), stream));
    constexpr int kRuns = 10;
    const sg::Timing time = sg::time_device(traced, 0, kRuns, stream);
    const std::vector<Trace> downloaded = trace.download();  // (a megabyte: the per-tile records)
    const Trace& sum = downloaded.front();
    sg::DeviceOracle<T, sg::Sum> oracle(n);
    const sg::Computes computes = D::kCopyOnly ? sg::Computes::Copy : sg::Computes::InclusiveScan;
    const auto check = oracle.compare(out.data(), oracle.expected(computes, in.data(), n, stream), n, stream);
    if (check.mismatches != 0) {
      std::printf("--trace: n = %zu: the traced %s is wrong at %llu elements (first %llu)\n", n, D::kCopyOnly ? "copy" : "scan",
                  check.mismatches, check.first);
      return false;
    }
    auto ratio = [](unsigned long long a, unsigned long long b) { return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b); };
    const double tiles = static_cast<double>((n + kTileItems<T, D> - 1) / kTileItems<T, D>);
    const double compute = static_cast<double>(sum.compute_ns);
    const unsigned long long looks = sum.lookback_windows + sum.lookback_repolls;
    const double lookback_ns = ratio(sum.lookback_ns, sum.lookbacks), block_ns = ratio(sum.compute_ns, sum.lookbacks);
    std::printf("%12zu %8.0f %8.3f %8.0f %8.2f %8.2f %8.0f %11.0f %11.0f %5.0f%% %10.0f %7.0f%% %4.0f%%/%2.0f%%\n", n, tiles,
                time.median_ms / copy_time.median_ms, 2.0 * n * sizeof(T) / (time.median_ms * 1e6), ratio(sum.lookback_windows, sum.lookbacks),
                ratio(sum.lookback_repolls, sum.lookbacks), ratio(sum.lookback_ns, looks), lookback_ns, block_ns,
                block_ns > 0 ? 100.0 * lookback_ns / (block_ns * D::kLookBackWarps) : 0.0, ratio(sum.waited_load_latency_ns, sum.waited_loads),
                100.0 * sum.waited_loads / (kRuns * tiles), 100.0 * sum.load_wait_ns / compute, 100.0 * sum.prefix_wait_ns / compute);
    print_timeline(sum, time.median_ms);
    if (D::kLookBackWarp && D::kTilesPerLookBack == 1 && !D::kClusterPairs && D::kScanBuffers == 0 && !D::kCopyOnly) {
      print_aggregates(sum, static_cast<std::size_t>(tiles));
      print_look_back_inputs(sum, static_cast<std::size_t>(tiles), ratio(sum.lookback_ns, looks), 32 * D::kLookBackTilesPerLane);
    }
    if (D::kTicketedTiles) print_tiles_per_sm<D, kGeometry>(in.data(), out.data(), n, trace.data(), device.sm_count);
    if (D::kPrefixWarp)
      std::printf("%12s the prefix warp: %.0f tiles per round trip (%llu rounds per launch)\n", "", ratio(sum.prefix_tiles, sum.prefix_rounds),
                  sum.prefix_rounds / kRuns);
    if (D::kScanBuffers > 0)
      std::printf("%12s the lag in the L2: the compute warps wait for rereads %.0f%% of their time\n", "", 100.0 * sum.reread_wait_ns / compute);
    if (D::kOwnTileRounds > 0)
      std::printf("%12s %.0f%% of the look-backs stopped at the block's previous tile, waiting %.0f ns each for its P\n", "",
                  100.0 * ratio(sum.own_tile_stops, sum.lookbacks), ratio(sum.own_tile_wait_ns, sum.own_tile_stops));
  }
  return true;
}

inline bool print_traces(const sg::Options& options, const sg::DeviceInfo& device) {
  if (!runs_bulk_copy_kernel()) {
    std::printf("--trace: %s runs chapter 09's v4 here (no bulk copies): nothing to trace\n", device.name.c_str());
    return true;
  }
  const bool ok = print_trace_rows<CopyThrough<1, true, false, false, true>>("diagnostic/copy_through_stages/tiles_by_ticket", options, device) &&
                  print_trace_rows<BulkStores>("5_device_tuned", options, device) &&
                  print_trace_rows<EarlyRelease>("6_early_release/inclusive", options, device) &&
                  print_trace_rows<TilePairs>("sweep/tile_pairs", options, device) &&
                  print_trace_rows<Design<2, true, true>>("sweep/2_lookback_warps", options, device) &&
                  print_trace_rows<TicketedTiles>("sweep/tiles_by_ticket", options, device) &&
                  print_trace_rows<Spread<1>>("sweep/7_spread_status/1_lookback_warp", options, device) &&
                  print_trace_rows<SpreadStatus>("7_spread_status/inclusive", options, device) &&
                  print_trace_rows<StatusPerPair>("sweep/7_spread_status/status_per_pair", options, device) &&
                  print_trace_rows<PrefetchNextTile>("8_prefetch_next_tile/inclusive", options, device) &&
                  print_trace_rows<SectorStatus>("9_sector_status/inclusive", options, device) &&
                  print_trace_rows<WholeSmTicketTail, whole_sm_geometry<std::int32_t>>("10_one_block_per_SM/inclusive", options, device) &&
                  print_trace_rows<WholeSm<SectorStatus>, whole_sm_geometry<std::int32_t>>("sweep/10_one_block_per_SM/dealt", options, device) &&
                  print_trace_rows<DrainLooksBack<WholeSmTicketTail>, whole_sm_geometry<std::int32_t>>("sweep/10_one_block_per_SM/drain_looks_back", options, device) &&
                  print_trace_rows<DrainLooksBack<WholeSmTicketTail, 8>, whole_sm_geometry<std::int32_t>>("sweep/10_one_block_per_SM/drain_looks_back/256_tiles_per_look", options, device) &&
                  print_trace_rows<StopAtOwnTile<kEveryRound, WholeSmTicketTail>, whole_sm_geometry<std::int32_t>>("sweep/10_one_block_per_SM/stop_at_own_tile", options, device) &&
                  print_trace_rows<StopAtOwnTile<kEveryRound, WholeSmPackedTicketTail>, whole_sm_geometry<std::int32_t>>("sweep/10_one_block_per_SM/stop_at_own_tile/packed_status", options, device) &&
                  print_trace_rows<StopAtOwnTile<4, WholeSmTicketTail>, whole_sm_geometry<std::int32_t>>("sweep/10_one_block_per_SM/stop_at_own_tile/over_the_last_4_rounds", options, device) &&
                  print_trace_rows<DrainLooksToOwnTiles<WholeSmTicketTail>, whole_sm_geometry<std::int32_t>>("sweep/10_one_block_per_SM/drain_looks_to_own_tiles", options, device) &&
                  print_trace_rows<GlobalPolls<WholeSmTicketTail>, whole_sm_geometry<std::int32_t>>("sweep/10_one_block_per_SM/global_polls", options, device) &&
                  print_trace_rows<EndWithoutStoreWaits<WholeSmTicketTail>, whole_sm_geometry<std::int32_t>>("sweep/10_one_block_per_SM/end_without_store_waits", options, device) &&
                  print_trace_rows<WholeSmBarrierFree, whole_sm_geometry<std::int32_t>>("sweep/10_one_block_per_SM/scan_without_block_barriers", options, device) &&
                  print_trace_rows<WholeSmScanWhenLanded, whole_sm_geometry<std::int32_t>>("diagnostic/12_one_block_per_SM/scan_when_landed/inclusive", options, device) &&
                  print_trace_rows<WholeSmItemsAsLaid, whole_sm_geometry<std::int32_t>>("diagnostic/12_one_block_per_SM/items_as_laid/inclusive", options, device) &&
                  print_trace_rows<WholeSmItemsAsLaidWarpStores, whole_sm_geometry<std::int32_t>>("diagnostic/14_one_block_per_SM/warp_stores/inclusive", options, device) &&
                  print_trace_rows<WholeSmItemsAsLaidScannedWhenLanded, whole_sm_geometry<std::int32_t>>("diagnostic/15_one_block_per_SM/inclusive", options, device) &&
                  print_trace_rows<WholeSmItemsAsLaidWindowTotals, whole_sm_geometry<std::int32_t>>("sweep/12_one_block_per_SM/items_as_laid/window_totals", options, device) &&
                  print_trace_rows<WholeSmItemsAsLaidWalkOn<2>, whole_sm_geometry<std::int32_t>>("sweep/12_one_block_per_SM/items_as_laid/walk_on_2_windows", options, device) &&
                  print_trace_rows<WholeSmItemsAsLaidWalkOn<4>, whole_sm_geometry<std::int32_t>>("sweep/12_one_block_per_SM/items_as_laid/walk_on_4_windows", options, device) &&
                  print_trace_rows<WholeSmItemsAsLaidDealt, whole_sm_geometry<std::int32_t>>("sweep/12_one_block_per_SM/items_as_laid/dealt", options, device) &&
                  print_trace_rows<WholeSmItemsAsLaidClusterPairs, whole_sm_geometry<std::int32_t>>("sweep/12_one_block_per_SM/items_as_laid/cluster_pairs", options, device) &&
                  print_trace_rows<WholeSmBarrierFreeLagGrowing<2>, whole_sm_geometry<std::int32_t>>("sweep/12_one_block_per_SM/lag_from_1_at_the_start/every_2_tiles", options, device) &&
                  print_trace_rows<WholeSmBarrierFreeLagGrowing<7>, whole_sm_geometry<std::int32_t>>("sweep/12_one_block_per_SM/lag_from_1_at_the_start/every_7_tiles", options, device) &&
                  print_trace_rows<WholeSmScanWhenLandedFusedEnd, whole_sm_geometry<std::int32_t>>("sweep/12_one_block_per_SM/scan_when_landed/lag_stored_together", options, device) &&
                  print_trace_rows<WholeSmBarrierFreePublishPassed, whole_sm_geometry<std::int32_t>>("sweep/12_one_block_per_SM/publish_passed_tiles", options, device) &&
                  print_trace_rows<WholeSmBarrierFreeFirstLoadsAlone<1>, whole_sm_geometry<std::int32_t>>("sweep/12_one_block_per_SM/first_tile_alone", options, device) &&
                  print_trace_rows<WholeSmBarrierFreeFirstLoadsAlone<5>, whole_sm_geometry<std::int32_t>>("sweep/12_one_block_per_SM/first_5_tiles_alone", options, device) &&
                  print_trace_rows<WholeSmBarrierFreeFirstTileAloneLagGrowing, whole_sm_geometry<std::int32_t>>("sweep/12_one_block_per_SM/first_tile_alone/lag_from_1_every_2_tiles", options, device) &&
                  print_trace_rows<WholeSmBarrierFreeSecondLap<4, 2>, whole_sm_geometry<std::int32_t>>("sweep/12_one_block_per_SM/second_lap_prefetch/after_tile_4/2_tiles", options, device) &&
                  print_trace_rows<WholeSmBarrierFreeSecondLap<4, 4>, whole_sm_geometry<std::int32_t>>("sweep/12_one_block_per_SM/second_lap_prefetch/after_tile_4/4_tiles", options, device) &&
                  print_trace_rows<WholeSmBarrierFreeTicketTail8, whole_sm_geometry<std::int32_t>>("sweep/12_one_block_per_SM/ticket_tail=8_rounds", options, device) &&
                  print_trace_rows<SectorStatusBarrierFree>("sweep/9_sector_status/scan_without_block_barriers", options, device) &&
                  print_trace_rows<WholeSmWarpStores, whole_sm_geometry<std::int32_t>>("sweep/10_one_block_per_SM/warp_stores", options, device) &&
                  print_trace_rows<SectorStatusWarpStores>("sweep/9_sector_status/warp_stores", options, device) &&
                  print_trace_rows<PrefetchAfterFirstLap<WholeSmTicketTail>, whole_sm_geometry<std::int32_t>>("sweep/10_one_block_per_SM/no_prefetch_in_the_first_lap", options, device) &&
                  print_trace_rows<DrainLooksBack<SectorStatus>>("sweep/9_sector_status/drain_looks_back", options, device) &&
                  print_trace_rows<SectorStatusWideLooks>("sweep/9_sector_status/64_tiles_per_look", options, device) &&
                  print_trace_rows<TicketTail<2, SectorStatus>>("sweep/9_sector_status/ticket_tail/2_rounds", options, device) &&
                  print_trace_rows<TicketsAhead<PrefetchNextTile>>("sweep/8_prefetch_next_tile/tiles_by_ticket", options, device) &&
                  print_trace_rows<PublishPassedTiles<4, PrefetchNextTile>>("sweep/8_prefetch_next_tile/publish_passed_tiles", options, device) &&
                  print_trace_rows<PublishPassedTiles<4, PrefetchAhead<1, Design<2, true, true>>>>("sweep/8_prefetch_next_tile/publish_passed_tiles/packed_status", options, device) &&
                  print_trace_rows<PrefixWarpOf<PrefetchNextTile>>("sweep/prefix_warp", options, device) &&
                  print_trace_rows<PrefixWarpOf<PrefetchAhead<1, Design<2, true, true>>>>("sweep/prefix_warp/packed_status", options, device) &&
                  print_trace_rows<PrefixWarpOf<PrefetchAhead<1, Design<2, true, true>>, 16>>("sweep/prefix_warp/packed_status/16_slabs", options, device) &&
                  print_trace_rows<PrefixWarpOf<PrefetchAhead<1, Design<2, true, true>>, 8, 0, true>>("sweep/prefix_warp/packed_status/8_tiles_per_lane", options, device) &&
                  print_trace_rows<LagInL2<2, 16, false, PrefetchNextTile>, device_geometry_with_lag<std::int32_t, 5>>("sweep/lag_in_L2/lag=5", options, device) &&
                  print_trace_rows<TicketsAhead<LagInL2<2, 16, false, PrefetchNextTile>>, device_geometry_with_lag<std::int32_t, 5>>("sweep/lag_in_L2/tiles_by_ticket/lag=5", options, device);
  std::printf("* x copy of the traced kernel, whose clock reads cost a little; the timed table above is the speed\n");
  return ok;
}

}  // namespace ch12

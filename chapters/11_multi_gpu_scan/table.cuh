// Chapter 11 - checking and timing scans spread over GPUs.
//
// For each n and each --gpus count G:
//   1 GPU   chapter 09's v4 scan of the whole array on GPU 0 (when it fits): the yardstick
//   G GPUs  every variant: inputs drawn on each GPU (the same values one GPU would draw for the
//           same seed, inputs.hpp), outputs poisoned, one run checked, then warm-up and timed
//           runs, then every output checked again.
// A run's time is the longest GPU's: CUDA events around each GPU's share of the launch, every
// run started with all GPUs idle. The NCCL share is the longest GPU's time between the events
// around the exchange (waiting for the slowest GPU to arrive included), over the run's time.
//
// The check, independent of the variant's own exchange:
//   every element   out[i] follows from out[i-1] and the input (in[i] inclusive, in[i-1]
//                   exclusive), on each GPU; exact for integers, any n
//   shard starts    out[first] follows from the carry: the shards' totals reduced by CUB on
//                   each GPU and combined in order on the host
//   n <= 2^27       also the whole array against the CPU reference (floats: only here)
#pragma once

#include "00_speed_of_light/cub_scan.cuh"
#include "11_multi_gpu_scan/gpus.cuh"
#include "11_multi_gpu_scan/multi_gpu_scan.cuh"
#include "common/device_oracle.cuh"
#include "common/flags.hpp"
#include "common/reference.hpp"
#include "common/timer.cuh"
#include "common/validate.hpp"

#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace ch11 {

inline constexpr std::size_t kCpuCheckLimit = std::size_t{1} << 27;

// ---- the check --------------------------------------------------------------------------------

template <typename T, typename Op, bool kExclusive>
__global__ void check_shard_kernel(const T* in, const T* out, std::size_t count, T carry, sg::DeviceComparison* result) {
  unsigned long long mismatches = 0, first = ~0ull;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const Op op{};
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    const T before = i == 0 ? carry : out[i - 1];
    const T expected = kExclusive ? (i == 0 ? carry : op(before, in[i - 1])) : op(before, in[i]);
    if (out[i] == expected) continue;
    ++mismatches;
    if (i < first) first = i;
  }
  if (mismatches == 0) return;
  atomicAdd(&result->mismatches, mismatches);
  atomicMin(&result->first, first);
}

// A shard's total by CUB. DeviceReduce may combine out of order (measured: a non-commutative
// operator's total came out wrong for 3071 int64), so only the commutative operators use it; the
// others take the last element of CUB's inclusive scan, which keeps the order.
template <typename T, typename Op>
T reduce_on_device(const T* in, std::size_t count, cudaStream_t stream) {
  if (count == 0) return Op::template identity<T>();
  std::size_t bytes = 0;
  if constexpr (std::is_same_v<Op, sg::Sum> || std::is_same_v<Op, sg::Max>) {
    sg::DeviceBuffer<T> total(1);
    SG_CUDA(cub::DeviceReduce::Reduce(nullptr, bytes, in, total.data(), count, Op{}, Op::template identity<T>(), stream));
    sg::DeviceBuffer<unsigned char> temp(std::max<std::size_t>(bytes, 1));
    SG_CUDA(cub::DeviceReduce::Reduce(temp.data(), bytes, in, total.data(), count, Op{}, Op::template identity<T>(), stream));
    SG_CUDA(cudaStreamSynchronize(stream));
    return total.download()[0];
  } else {
    sg::DeviceBuffer<T> scanned(count);
    SG_CUDA((ch00::cub_scan<T, Op, true>(nullptr, bytes, in, scanned.data(), count, stream)));
    sg::DeviceBuffer<unsigned char> temp(std::max<std::size_t>(bytes, 1));
    SG_CUDA((ch00::cub_scan<T, Op, true>(temp.data(), bytes, in, scanned.data(), count, stream)));
    SG_CUDA(cudaStreamSynchronize(stream));
    T total{};
    SG_CUDA(cudaMemcpy(&total, scanned.data() + count - 1, sizeof total, cudaMemcpyDeviceToHost));
    return total;
  }
}

// "" when data.out is the scan of data.in, otherwise what is wrong and where.
template <typename T, typename Op, bool kExclusive>
std::string check_distributed(const Gpus& gpus, Distributed<T>& data, std::uint64_t seed) {
  std::string failure;
  if constexpr (std::is_integral_v<T>) {
    std::vector<T> totals(gpus.count());
    gpus.on_each([&](int g) { totals[g] = reduce_on_device<T, Op>(data.in[g].data(), data.ranges[g].count, gpus.stream(g)); });
    T carry = Op::template identity<T>();
    gpus.on_each([&](int g) {
      const Range& range = data.ranges[g];
      const T carry_g = carry;
      carry = Op{}(carry, totals[g]);
      if (range.count == 0 || !failure.empty()) return;
      sg::DeviceBuffer<sg::DeviceComparison> result(1);
      const sg::DeviceComparison zero{0, 0, ~0ull};
      SG_CUDA(cudaMemcpy(result.data(), &zero, sizeof zero, cudaMemcpyHostToDevice));
      const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>(sg::blocks_for(range.count, 256), 4096));
      check_shard_kernel<T, Op, kExclusive><<<blocks, 256, 0, gpus.stream(g)>>>(data.in[g].data(), data.out[g].data(), range.count,
                                                                               carry_g, result.data());
      SG_CHECK_LAUNCH();
      SG_CUDA(cudaStreamSynchronize(gpus.stream(g)));
      const sg::DeviceComparison found = result.download()[0];
      if (found.mismatches > 0)
        failure = std::to_string(found.mismatches) + " of " + std::to_string(range.count) + " elements on GPU " + std::to_string(g) +
                  " do not follow from the element before them (first at global index " + std::to_string(range.begin + found.first) + ")";
    });
  }
  if (!failure.empty() || data.n > kCpuCheckLimit) return failure;
  // the whole array against the CPU reference
  std::vector<T> got;
  got.reserve(data.n);
  gpus.on_each([&](int g) {
    const std::vector<T> part = data.out[g].download(data.ranges[g].count);
    got.insert(got.end(), part.begin(), part.end());
  });
  const auto computes = kExclusive ? sg::Computes::ExclusiveScan : sg::Computes::InclusiveScan;
  const sg::Validation result = sg::validate(got, sg::expected_output<T, Op>(computes, sg::random_input<T, Op>(data.n, seed)));
  return result.ok() ? "" : "against the CPU reference: " + result.summary();
}

// ---- the table --------------------------------------------------------------------------------

struct Row {
  std::string variant;
  std::size_t n = 0;
  int gpus = 1;
  bool timed = false;
  double median_ms = 0, min_ms = 0, gb_per_s = 0, speedup = 0, efficiency = 0, nccl_share = 0, model_efficiency = 0;
  std::string check;
  std::string timeline;  // --timeline: the median run's phases on each GPU (timeline_text)
};

// ---- the timeline of one run (--timeline) -----------------------------------------------------

// One GPU's share of one run, in ms from that GPU's start event: the phase before the exchange
// ends at exchange_begin, the exchange (waiting for the slowest GPU included) at exchange_end,
// the phase after it at end.
struct GpuPhases {
  double exchange_begin = 0, exchange_end = 0, end = 0;
};

// The phases drawn as text, one line per GPU, to scale: '=' before the exchange, 'x' the
// exchange (at least one character), '#' after it. The phase names come from the variant's name,
// "<before>_exchange_<after>/...". Each GPU's times start at its own start event (CUDA events
// of two GPUs cannot be subtracted); one host thread records the starts back to back, with
// every GPU idle, so they lie within a few microseconds of each other.
inline std::string timeline_text(const std::string& variant, const std::vector<GpuPhases>& gpus) {
  const std::string stem = variant.substr(0, variant.find('/'));
  const std::size_t middle = stem.find("_exchange_");
  const std::string before = middle == std::string::npos ? "before" : stem.substr(0, middle);
  const std::string after = middle == std::string::npos ? "after" : stem.substr(middle + 10);
  double longest = 0;
  for (const GpuPhases& p : gpus) longest = std::max(longest, p.end);
  constexpr int kWidth = 60;
  auto column = [&](double ms) { return longest > 0 ? static_cast<int>(ms / longest * kWidth + 0.5) : 0; };
  std::string text = "  timeline of the median run (ms from each GPU's start; '=' " + before + ", 'x' exchange, '#' " + after + "):\n";
  for (std::size_t g = 0; g < gpus.size(); ++g) {
    const GpuPhases& p = gpus[g];
    const int x0 = column(p.exchange_begin), x1 = std::max(column(p.exchange_end), x0 + 1), x2 = std::max(column(p.end), x1);
    char line[256];
    std::snprintf(line, sizeof line, "  GPU %zu  %s 0.000-%.3f  exchange %.3f-%.3f  %s %.3f-%.3f  |%s%s%s%s|\n", g, before.c_str(),
                  p.exchange_begin, p.exchange_begin, p.exchange_end, after.c_str(), p.exchange_end, p.end, std::string(x0, '=').c_str(),
                  std::string(x1 - x0, 'x').c_str(), std::string(x2 - x1, '#').c_str(), std::string(kWidth - std::min(x2, kWidth), ' ').c_str());
    text += line;
  }
  return text;
}

inline void print_header(bool csv) {
  if (csv) std::printf("variant,n,gpus,median_ms,min_ms,effective_gb_per_s,speedup,efficiency,nccl_share,model_efficiency,valid\n");
  else
    std::printf("\n%-34s %12s %4s %10s %10s %8s %7s %6s %6s %6s  %s\n", "variant", "n", "GPUs", "median ms", "min ms", "GB/s", "x 1GPU",
                "eff.", "NCCL", "model", "check");
}

inline void print_row(const Row& r, bool csv) {
  const char* valid = r.check == "ok" ? "yes" : (r.check == "-" ? "unchecked" : "no");
  if (csv) {
    if (r.timed)
      std::printf("%s,%zu,%d,%.6f,%.6f,%.3f,%.4f,%.4f,%.4f,%.4f,%s\n", r.variant.c_str(), r.n, r.gpus, r.median_ms, r.min_ms, r.gb_per_s,
                  r.speedup, r.efficiency, r.nccl_share, r.model_efficiency, valid);
    else
      std::printf("%s,%zu,%d,,,,,,,%.4f,%s\n", r.variant.c_str(), r.n, r.gpus, r.model_efficiency, valid);
  } else if (r.timed) {
    char speedup[16] = "-", efficiency[16] = "-";
    if (r.speedup > 0) {
      std::snprintf(speedup, sizeof speedup, "%.2f", r.speedup);
      std::snprintf(efficiency, sizeof efficiency, "%.0f%%", 100 * r.efficiency);
    }
    std::printf("%-34s %12zu %4d %10.4f %10.4f %8.1f %7s %6s %5.1f%% %5.0f%%  %s\n", r.variant.c_str(), r.n, r.gpus, r.median_ms, r.min_ms,
                r.gb_per_s, speedup, efficiency, 100 * r.nccl_share, 100 * r.model_efficiency, r.check.c_str());
  } else {
    std::printf("%-34s %12zu %4d %10s %10s %8s %7s %6s %6s %5.0f%%  %s\n", r.variant.c_str(), r.n, r.gpus, "-", "-", "-", "-", "-", "-",
                100 * r.model_efficiency, r.check.c_str());
  }
  std::fflush(stdout);
}

// Fails with the memory each GPU needs when the shards do not fit.
inline void require_shards_fit(const Gpus& gpus, std::size_t n, std::size_t element_bytes) {
  gpus.on_each([&](int g) {
    const double shard = static_cast<double>(shard_of(n, gpus.count(), g).count) * static_cast<double>(element_bytes);
    sg::require_device_memory(2.0 * shard + (64 << 20),
                              "n = " + std::to_string(n) + " over " + std::to_string(gpus.count()) + " GPU(s) (GPU " + std::to_string(g) +
                                  ": input and output of its shard)");
  });
}

// Chapter 09's v4 on GPU 0 over the whole array: the time every variant is compared with.
template <typename T, typename Op>
Row single_gpu_row(std::size_t n, const sg::Options& options, cudaStream_t stream) {
  Row row;
  row.variant = "1 GPU: 09 v4/tuned/inclusive";
  row.n = n;
  row.model_efficiency = 1.0;
  std::size_t free_bytes = 0, total_bytes = 0;
  SG_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (2.0 * static_cast<double>(n) * sizeof(T) + (512 << 20) > static_cast<double>(free_bytes)) {
    row.check = "skipped: the whole array does not fit one GPU";
    return row;
  }
  sg::DeviceBuffer<T> in(n), out(std::max<std::size_t>(n, 1));
  sg::fill_random<T, Op>(in.data(), n, options.seed, stream);
  const sg::Timing timing = sg::time_device([&](int) { ch09::tuned_scan<T, Op, false>(in.data(), out.data(), n, stream); },
                                            options.warmup, options.iters, stream);
  row.timed = true;
  row.median_ms = timing.median_ms;
  row.min_ms = timing.min_ms;
  row.gb_per_s = 2.0 * static_cast<double>(n) * sizeof(T) / (timing.median_ms * 1e6);
  row.speedup = 1.0;
  row.efficiency = 1.0;
  row.check = "-";  // chapter 09's own tests check it
  return row;
}

template <typename T, typename Op>
using CheckFunction = std::string (*)(const Gpus&, Distributed<T>&, std::uint64_t);

template <typename T, typename Op>
Row run_variant(const Gpus& gpus, Distributed<T>& data, const MultiGpuVariant<T, Op>& variant, CheckFunction<T, Op> check,
                const sg::Options& options, const Row& single, bool timeline = false) {
  Row row;
  row.variant = variant.name;
  row.n = data.n;
  row.gpus = gpus.count();
  row.model_efficiency = 2.0 / variant.shard_passes;
  auto poison_all = [&] { gpus.on_each([&](int g) { sg::poison(data.out[g], gpus.stream(g)); }); };
  std::string failure;
  if (options.check) {
    poison_all();
    variant.launch(gpus, data, nullptr);
    gpus.synchronize();
    gpus.on_each([&](int g) {
      if (const std::string stuck = sg::stuck_wait_report(); !stuck.empty() && failure.empty()) failure = "GPU " + std::to_string(g) + ": " + stuck;
    });
    if (failure.empty()) failure = check(gpus, data, options.seed);
  }
  if (options.timing) {
    const int runs = options.warmup + options.iters;
    std::vector<std::vector<cudaEvent_t>> start(runs), stop(runs);
    std::vector<ExchangeEvents> exchange(runs);
    gpus.on_each([&](int) {  // each GPU's events, created with that GPU current, in GPU order
      for (int r = 0; r < runs; ++r) {
        cudaEvent_t events[4];
        for (cudaEvent_t& e : events) SG_CUDA(cudaEventCreate(&e));
        start[r].push_back(events[0]);
        stop[r].push_back(events[1]);
        exchange[r].before.push_back(events[2]);
        exchange[r].after.push_back(events[3]);
      }
    });
    poison_all();
    for (int r = 0; r < runs; ++r) {
      // every run starts with every GPU idle: otherwise a GPU with less to do (GPU 0 has no
      // fix-up) starts the next run early and waits in its exchange for the others
      gpus.synchronize();
      gpus.on_each([&](int g) { SG_CUDA(cudaEventRecord(start[r][g], gpus.stream(g))); });
      variant.launch(gpus, data, &exchange[r]);
      gpus.on_each([&](int g) { SG_CUDA(cudaEventRecord(stop[r][g], gpus.stream(g))); });
    }
    gpus.synchronize();
    std::vector<double> times, shares;
    for (int r = options.warmup; r < runs; ++r) {
      double longest = 0, exchange_longest = 0;
      gpus.on_each([&](int g) {
        float ms = 0, ex = 0;
        SG_CUDA(cudaEventElapsedTime(&ms, start[r][g], stop[r][g]));
        SG_CUDA(cudaEventElapsedTime(&ex, exchange[r].before[g], exchange[r].after[g]));
        longest = std::max<double>(longest, ms);
        exchange_longest = std::max<double>(exchange_longest, ex);
      });
      times.push_back(longest);
      shares.push_back(longest > 0 ? exchange_longest / longest : 0);
    }
    if (timeline) {  // a middle run: the median's, or the upper of the two middle ones
      std::vector<int> order(times.size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
      std::sort(order.begin(), order.end(), [&](int a, int b) { return times[a] < times[b]; });
      const int r = options.warmup + order[order.size() / 2];
      std::vector<GpuPhases> phases(gpus.count());
      gpus.on_each([&](int g) {
        float begin = 0, end_exchange = 0, end = 0;
        SG_CUDA(cudaEventElapsedTime(&begin, start[r][g], exchange[r].before[g]));
        SG_CUDA(cudaEventElapsedTime(&end_exchange, start[r][g], exchange[r].after[g]));
        SG_CUDA(cudaEventElapsedTime(&end, start[r][g], stop[r][g]));
        phases[g] = {begin, end_exchange, end};
      });
      row.timeline = timeline_text(variant.name, phases);
    }
    gpus.on_each([&](int g) {
      for (int r = 0; r < runs; ++r)
        for (cudaEvent_t e : {start[r][g], stop[r][g], exchange[r].before[g], exchange[r].after[g]}) cudaEventDestroy(e);
    });
    row.timed = true;
    row.median_ms = sg::median_of(times);
    row.min_ms = *std::min_element(times.begin(), times.end());
    row.gb_per_s = 2.0 * static_cast<double>(data.n) * sizeof(T) / (row.median_ms * 1e6);
    row.nccl_share = sg::median_of(shares);
    if (single.timed) {
      row.speedup = single.median_ms / row.median_ms;
      row.efficiency = row.speedup / gpus.count();
    }
    if (options.check && failure.empty()) {
      gpus.on_each([&](int g) {
        if (const std::string stuck = sg::stuck_wait_report(); !stuck.empty() && failure.empty()) failure = "GPU " + std::to_string(g) + ": " + stuck;
      });
      if (failure.empty()) {
        const std::string after = check(gpus, data, options.seed);
        if (!after.empty()) failure = "after timing: " + after;
      }
    }
  }
  row.check = !options.check ? "-" : (failure.empty() ? "ok" : "FAIL: " + failure);
  if (options.check && !std::is_integral_v<T> && data.n > kCpuCheckLimit && failure.empty())
    row.check = "unchecked: float results are checked on the CPU, up to 2^27 elements";
  return row;
}

}  // namespace ch11

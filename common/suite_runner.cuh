// common/suite_runner.cuh - every variant over the 2,022-size suite (--n suite).
//
// For each size of the suite (suite.hpp), and each repetition (--repeat), with fresh random
// data every time (seed + a counter):
//   1. the input is drawn on the GPU (device_oracle.cuh); float sums are drawn as small
//      integers (Draw::Exact, inputs.hpp), so that every output can be compared exactly,
//      and the harness checks that each draw keeps every sum of it exact;
//   2. each full-array variant runs on a poisoned output, and every element is compared on
//      the GPU with CUB's result for the same input; at the powers of two the output is also
//      compared with the CPU reference;
//   3. with timing (the default), the variant and a device-to-device copy of the same n are
//      timed as everywhere else (rotating buffer sets below the L2 size), and every output
//      the timed runs wrote is compared again.
// With --csv every (size, variant) row is printed: the data of a throughput-against-size
// plot (Merrill & Grimshaw's figure 28). Otherwise the table shows progress, each failure as
// it happens, and a summary per variant. Tile-local variants (chapters 03-05) are skipped:
// CUB has no tile-local scan to compare them with.
#pragma once

#include "common/bench.cuh"
#include "common/device_oracle.cuh"
#include "common/suite.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace sg {

namespace detail {

struct SuiteTally {
  std::size_t scans = 0, failed = 0;
  std::string first_failure;
};

inline std::size_t align_elements(std::size_t count, std::size_t element_bytes) {
  const std::size_t per_256 = std::max<std::size_t>(1, 256 / element_bytes);
  return (count + per_256 - 1) / per_256 * per_256;
}

}  // namespace detail

template <typename T, typename Op>
bool run_suite(const std::vector<LabelledVariant<T, Op>>& all_variants, const Options& options, const DeviceInfo& device) {
  cudaStream_t stream = nullptr;
  const std::vector<std::size_t>& sizes = options.sizes;
  std::vector<LabelledVariant<T, Op>> variants;
  for (const auto& v : all_variants) {
    if (!variant_selected(options, v.label)) continue;
    if (v.variant.tile != 0) {
      if (!options.csv) std::printf("skipped %s: tile-local (the suite checks full-array scans)\n", v.label.c_str());
      continue;
    }
    variants.push_back(v);
  }
  if (variants.empty()) throw UsageError("--n suite: no full-array variant selected");

  // One pool of buffers, carved per size into the rotation sets the timing needs.
  std::size_t largest = 0, pool = 0;
  double scratch = 0;
  for (std::size_t n : sizes) {
    largest = std::max(largest, n);
    const int sets = options.timing ? rotation_sets(2 * std::max<std::size_t>(n, 1) * sizeof(T), device.l2_bytes) : 1;
    pool = std::max(pool, static_cast<std::size_t>(sets) * 2 * detail::align_elements(std::max<std::size_t>(n, 1), sizeof(T)));
    for (const auto& v : variants) scratch = std::max<double>(scratch, static_cast<double>(v.variant.scratch_for(n)));
  }
  require_device_memory(static_cast<double>(pool + largest) * sizeof(T) + 2 * scratch,
                        "the suite (largest n = " + std::to_string(largest) + ", buffer sets, CUB's result and scratch)");
  DeviceBuffer<T> buffers(pool);
  DeviceOracle<T, Op> oracle(largest);
  std::vector<detail::SuiteTally> tallies(variants.size());

  const std::size_t total = sizes.size() * static_cast<std::size_t>(options.repeat);
  if (!options.csv)
    std::printf("suite: %zu sizes x %d repetition%s from %zu to %zu elements, fresh data each time; every output compared on the GPU\n"
                "with CUB's, at powers of two also with the CPU reference\n\n",
                sizes.size(), options.repeat, options.repeat > 1 ? "s" : "", *std::min_element(sizes.begin(), sizes.end()), largest);
  std::size_t done = 0;
  for (int repetition = 0; repetition < options.repeat; ++repetition) {
    for (std::size_t i = 0; i < sizes.size(); ++i, ++done) {
      const std::size_t n = sizes[i];
      const std::uint64_t seed = options.seed + done;
      const std::size_t stride = detail::align_elements(std::max<std::size_t>(n, 1), sizeof(T));
      const int sets = options.timing ? rotation_sets(2 * std::max<std::size_t>(n, 1) * sizeof(T), device.l2_bytes) : 1;
      auto input = [&](int s) { return buffers.data() + 2 * stride * static_cast<std::size_t>(s); };
      auto output = [&](int s) { return buffers.data() + 2 * stride * static_cast<std::size_t>(s) + stride; };
      fill_random<T, Op, Draw::Exact>(input(0), n, seed, stream);
      if constexpr (std::is_floating_point_v<T> && std::is_same_v<Op, Sum>) {  // checked, not hoped (inputs.hpp)
        const T prefix = oracle.largest_prefix_sum(input(0), n, stream);
        if (!(prefix <= exact_prefix_bound<T>()))  // never in practice: a harness error, not a kernel's
          throw std::runtime_error("harness error: a prefix sum of the input at n = " + std::to_string(n) + " (seed " +
                                   std::to_string(seed) + ") reaches " + value_text(prefix) + ", beyond " +
                                   value_text(exact_prefix_bound<T>()) + ": float sums may round, no exact comparison possible");
      }
      for (int s = 1; s < sets; ++s)
        SG_CUDA(cudaMemcpyAsync(input(s), input(0), n * sizeof(T), cudaMemcpyDeviceToDevice, stream));
      auto poison_outputs = [&](int count) {
        for (int s = 0; s < count; ++s) SG_CUDA(cudaMemsetAsync(output(s), poison_byte<T>(), stride * sizeof(T), stream));
      };

      Timing copy;
      if (options.timing) {
        copy = time_device([&](int rep) {
          const int s = rep % sets;
          SG_CUDA(cudaMemcpyAsync(output(s), input(s), n * sizeof(T), cudaMemcpyDeviceToDevice, stream));
        }, options.warmup, options.iters, stream);
        if (options.csv) print_row<T, Op>(timed_row("baseline: cudaMemcpy D2D", n, copy, copy, Computes::Copy, model::read_write, sizeof(T)), options);
      }

      for (std::size_t v = 0; v < variants.size(); ++v) {
        const Variant<T, Op>& variant = variants[v].variant;
        detail::SuiteTally& tally = tallies[v];
        if (n > variant.max_n) continue;
        const std::size_t count = variant.computes == Computes::Reduce ? 1 : n;
        std::string failure;
        auto compare = [&](const T* got, const std::string& when) {
          const T* expected = oracle.expected(variant.computes, input(0), n, stream);
          const DeviceComparison result = oracle.compare(got, expected, count, stream);
          if (result.mismatches == 0 || !failure.empty()) return;
          T wrong{}, right{};
          SG_CUDA(cudaMemcpy(&wrong, got + result.first, sizeof(T), cudaMemcpyDeviceToHost));
          SG_CUDA(cudaMemcpy(&right, expected + result.first, sizeof(T), cudaMemcpyDeviceToHost));
          failure = std::to_string(result.mismatches) + " of " + std::to_string(count) + " wrong" + when +
                    (result.unwritten > 0 ? " (" + std::to_string(result.unwritten) + " never written)" : "") +
                    "; first at " + std::to_string(result.first) + ": CUB " + value_text(right) + ", got " + value_text(wrong);
        };

        nvtxRangePushA(variants[v].label.c_str());
        if (options.check) {
          poison_outputs(1);
          variant.launch(input(0), output(0), n, stream);
          SG_CUDA(cudaStreamSynchronize(stream));
          if (const std::string stuck = stuck_wait_report(); !stuck.empty()) failure = stuck;
          compare(output(0), "");
          if (failure.empty() && is_power_of_two(n) && n <= (std::size_t{1} << 26)) {  // the independent CPU check
            const Expected<T> expected = expected_output<T, Op>(variant.computes, random_input<T, Op, Draw::Exact>(n, seed));
            std::vector<T> got(count);
            if (count > 0) SG_CUDA(cudaMemcpy(got.data(), output(0), count * sizeof(T), cudaMemcpyDeviceToHost));
            const Validation check = validate(got, expected);
            if (!check.ok()) failure = "against the CPU reference: " + check.summary();
          }
        }
        Timing timing;
        if (options.timing) {
          poison_outputs(sets);
          timing = time_device([&](int rep) { variant.launch(input(rep % sets), output(rep % sets), n, stream); },
                               options.warmup, options.iters, stream);
          if (const std::string stuck = stuck_wait_report(); !stuck.empty() && failure.empty()) failure = stuck + " (timed runs)";
          if (options.check)
            for (int s = 0; s < std::min(sets, options.warmup + options.iters); ++s) compare(output(s), " after timing");
        }
        nvtxRangePop();

        ++tally.scans;
        if (!failure.empty()) {
          ++tally.failed;
          const std::string where = "n = " + std::to_string(n) + " (seed " + std::to_string(seed) + "): " + failure;
          if (tally.first_failure.empty()) tally.first_failure = where;
          if (!options.csv) std::printf("FAIL %s at %s\n", variants[v].label.c_str(), where.c_str());
        }
        if (options.csv) {
          ReportRow row = options.timing ? timed_row(variants[v].label, n, timing, copy, variant.computes, variant.model_bytes, sizeof(T))
                                         : untimed_row(variants[v].label, n, variant.model_bytes, sizeof(T));
          row.check = !options.check ? "-" : (failure.empty() ? "ok" : "FAIL: " + failure);
          print_row<T, Op>(row, options);
        }
      }
      if (!options.csv && ((done + 1) % 500 == 0 || done + 1 == total)) {
        std::size_t failed = 0;
        for (const auto& t : tallies) failed += t.failed;
        std::printf("... %zu of %zu sizes done, %zu failed scans so far\n", done + 1, total, failed);
        std::fflush(stdout);
      }
    }
  }

  std::size_t scans = 0, failed = 0;
  for (const auto& t : tallies) scans += t.scans, failed += t.failed;
  const char* prefix = options.csv ? "# " : "";
  std::printf("%s\n%s%-44s %8s %8s  %s\n", options.csv ? "#" : "", prefix, "variant", "scans", "failed", "first failure");
  for (std::size_t v = 0; v < variants.size(); ++v)
    std::printf("%s%-44s %8zu %8zu  %s\n", prefix, variants[v].label.c_str(), tallies[v].scans, tallies[v].failed,
                tallies[v].first_failure.empty() ? "-" : tallies[v].first_failure.c_str());
  std::printf("%ssuite: %zu scans, %zu failed (seed %llu; rerun with --n suite --seed %llu)\n", prefix, scans, failed,
              static_cast<unsigned long long>(options.seed), static_cast<unsigned long long>(options.seed));
  return failed == 0;
}

}  // namespace sg

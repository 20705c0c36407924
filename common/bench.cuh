// common/bench.cuh - check and time variants at one size, against a copy measured alongside.
//
// For each size n, SizeBench
//   1. draws a seeded random input and uploads it to enough buffer sets that rotating
//      between them defeats the L2 cache (timer.cuh),
//   2. times cudaMemcpy device-to-device of the same bytes: the speed of light,
//   3. for each variant: poisons the output, launches once and validates against the CPU
//      reference; poisons again, times warm-up + repetitions; validates every output the
//      timed runs wrote (a race may show only under back-to-back launches). A wait between
//      blocks that gave up (watchdog.cuh) fails the row with the stuck tile named.
//
// With --no-timing, step 2 and the timed runs are skipped: the rows say only "ok" or FAIL.
//
// run_variants() prints the table for a list of variants over every --n; the chapter
// programs and the tour are thin wrappers around it. (--n suite goes to suite_runner.cuh.)
#pragma once

#include "common/check.cuh"
#include "common/device_buffer.cuh"
#include "common/device_info.cuh"
#include "common/flags.hpp"
#include "common/inputs.hpp"
#include "common/reference.hpp"
#include "common/report.hpp"
#include "common/timer.cuh"
#include "common/traffic_model.hpp"
#include "common/validate.hpp"
#include "common/variant.cuh"
#include "common/watchdog.cuh"

#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace sg {

// A row for a timing at n, compared with the copy timed at the same n in the same run.
inline ReportRow timed_row(const std::string& label, std::size_t n, const Timing& timing, const Timing& copy, Computes computes,
                           TrafficModel model_bytes, std::size_t element_bytes) {
  ReportRow row;
  row.variant = label;
  row.n = n;
  row.median_ms = timing.median_ms;
  row.min_ms = timing.min_ms;
  row.effective_gb_per_s = timing.median_ms > 0 ? must_move_bytes(computes, n, element_bytes) / (timing.median_ms * 1e6) : 0.0;
  row.ratio_to_copy = copy.median_ms > 0 ? timing.median_ms / copy.median_ms : 0.0;
  row.model_ratio = predicted_ratio(model_bytes, n, element_bytes);
  row.model_bytes = model_bytes(n, element_bytes);
  row.check = "-";
  return row;
}

// The same row for work that was not timed (--no-timing): check and model only.
inline ReportRow untimed_row(const std::string& label, std::size_t n, TrafficModel model_bytes, std::size_t element_bytes) {
  ReportRow row = timed_row(label, n, Timing{}, Timing{}, Computes::Copy, model_bytes, element_bytes);
  row.timed = false;
  return row;
}

// A row's check column: "ok", "-" (not checked), or the first failure: a wait that gave up
// (before or during timing), a wrong result of the checked run, a wrong result after timing.
inline std::string check_verdict(bool checked, const std::string& stuck_before, const std::string& stuck_after,
                                 const Validation& before, const Validation& after) {
  if (!stuck_before.empty()) return "FAIL: " + stuck_before;
  if (!stuck_after.empty()) return "FAIL during timing: " + stuck_after;
  if (!checked) return "-";
  if (!before.ok()) return "FAIL: " + before.summary();
  if (!after.ok()) return "FAIL after timing: " + after.summary();
  return "ok";
}

template <typename T, typename Op>
class SizeBench {
 public:
  using value_type = T;
  using op_type = Op;

  SizeBench(const DeviceInfo& device, const Options& options, std::size_t n, std::uint64_t seed, double scratch_bytes,
            cudaStream_t stream)
      : options_(options), n_(n), stream_(stream) {
    const std::size_t set_bytes = 2 * std::max<std::size_t>(n, 1) * sizeof(T);
    sets_ = options.timing ? rotation_sets(set_bytes, device.l2_bytes) : 1;
    require_device_memory(static_cast<double>(sets_) * set_bytes + scratch_bytes,
                          "n = " + std::to_string(n) + " (" + std::to_string(sets_) + " input/output buffer set" +
                              (sets_ > 1 ? "s" : "") + " plus scratch)");
    input_ = random_input<T, Op>(n, seed);
    for (int s = 0; s < sets_; ++s) {
      inputs_.emplace_back(n);
      inputs_.back().upload(input_);
      outputs_.emplace_back(std::max<std::size_t>(n, 1));  // a reduction of 0 elements still writes one value
    }
    if (!options.timing) return;
    nvtxRangePushA("copy baseline (cudaMemcpy D2D)");
    copy_ = time_device(
        [&](int rep) {
          const int s = rep % sets_;
          SG_CUDA(cudaMemcpyAsync(outputs_[s].data(), inputs_[s].data(), n_ * sizeof(T), cudaMemcpyDeviceToDevice, stream_));
        },
        options.warmup, options.iters, stream_);
    nvtxRangePop();
  }

  std::size_t n() const { return n_; }
  const std::vector<T>& input() const { return input_; }
  const Timing& copy_timing() const { return copy_; }

  ReportRow copy_row() const {
    if (!options_.timing) return untimed_row("baseline: cudaMemcpy D2D (not timed)", n_, model::read_write, sizeof(T));
    return timed_row("baseline: cudaMemcpy D2D", copy_, Computes::Copy, model::read_write);
  }

  // A row for work timed elsewhere (chapter 00 times the CPU scan), compared with this copy.
  ReportRow timed_row(const std::string& label, const Timing& timing, Computes computes, TrafficModel model_bytes) const {
    return sg::timed_row(label, n_, timing, copy_, computes, model_bytes, sizeof(T));
  }

  ReportRow run(const Variant<T, Op>& variant, const std::string& label) {
    if (n_ > variant.max_n) {
      ReportRow row = untimed_row(label, n_, variant.model_bytes, sizeof(T));
      row.check = "skipped: n above this variant's limit of " + std::to_string(variant.max_n);
      return row;
    }
    nvtxRangePushA(label.c_str());
    Validation before, after;
    std::string stuck_before, stuck_after;
    if (options_.check) {
      before = check_once(variant);
      stuck_before = stuck_wait_report();
    }

    Timing timing;
    if (options_.timing) {
      for (DeviceBuffer<T>& out : outputs_) poison(out, stream_);
      timing = time_device(
          [&](int rep) {
            const int s = rep % sets_;
            variant.launch(inputs_[s].data(), outputs_[s].data(), n_, stream_);
          },
          options_.warmup, options_.iters, stream_);
      stuck_after = stuck_wait_report();
      if (options_.check) after = check_written_sets(variant, options_.warmup + options_.iters);
    }
    nvtxRangePop();

    ReportRow row = options_.timing ? timed_row(label, timing, variant.computes, variant.model_bytes)
                                    : untimed_row(label, n_, variant.model_bytes, sizeof(T));
    row.check = check_verdict(options_.check, stuck_before, stuck_after, before, after);
    return row;
  }

 private:
  const Expected<T>& expected_for(const Variant<T, Op>& variant) {
    const auto key = std::make_pair(static_cast<int>(variant.computes), variant.tile);
    auto found = expected_.find(key);
    if (found == expected_.end()) found = expected_.emplace(key, expected_output<T, Op>(variant.computes, input_, variant.tile)).first;
    return found->second;
  }

  Validation check_once(const Variant<T, Op>& variant) {
    poison(outputs_[0], stream_);
    variant.launch(inputs_[0].data(), outputs_[0].data(), n_, stream_);
    SG_CUDA(cudaStreamSynchronize(stream_));
    const Expected<T>& expected = expected_for(variant);
    return validate(downloaded(outputs_[0], expected.values.size()), expected.values.size(), expected);
  }

  // An output in host memory, for validation: the same page-locked buffer for every download.
  const T* downloaded(const DeviceBuffer<T>& output, std::size_t count) {
    if (!staging_ || staging_->size() < count) staging_ = std::make_unique<HostBuffer<T>>(count);
    output.download_to(staging_->data(), count);
    return staging_->data();
  }

  // Validates every buffer set the timed loop wrote (runs 0 .. runs-1 rotate over the sets).
  Validation check_written_sets(const Variant<T, Op>& variant, int runs) {
    const Expected<T>& expected = expected_for(variant);
    for (int s = 0; s < std::min(sets_, runs); ++s) {
      Validation result = validate(downloaded(outputs_[s], expected.values.size()), expected.values.size(), expected);
      if (!result.ok()) return result;
    }
    Validation all_ok;
    all_ok.checked = expected.values.size();
    return all_ok;
  }

  const Options& options_;
  std::size_t n_;
  cudaStream_t stream_;
  int sets_ = 1;
  std::vector<T> input_;
  std::vector<DeviceBuffer<T>> inputs_, outputs_;
  Timing copy_;
  std::map<std::pair<int, std::size_t>, Expected<T>> expected_;
  std::unique_ptr<HostBuffer<T>> staging_;  // allocated at the first check
};

inline void print_preamble(const std::string& title, const DeviceInfo& device, const Options& options, const std::string& type,
                           const std::string& op) {
  const char* prefix = options.csv ? "# " : "";
  std::printf("%s%s\n", prefix, title.c_str());
  std::printf("%sdevice: %s\n", prefix, describe(device).c_str());
  if (options.timing)
    std::printf("%s%s %s | seed %llu (rerun with --seed %llu) | median and min of %d timed runs after %d warm-up runs\n", prefix,
                type.c_str(), op.c_str(), static_cast<unsigned long long>(options.seed),
                static_cast<unsigned long long>(options.seed), options.iters, options.warmup);
  else
    std::printf("%s%s %s | seed %llu (rerun with --seed %llu) | validation only (--no-timing)\n", prefix, type.c_str(), op.c_str(),
                static_cast<unsigned long long>(options.seed), static_cast<unsigned long long>(options.seed));
  std::printf("%sx copy = time / time of cudaMemcpy D2D of the same n in this run; model = the traffic model's prediction of it\n",
              prefix);
  std::printf(options.csv ? "%s\n" : "\n%s\n", (options.csv ? csv_header() : table_header()).c_str());
  std::fflush(stdout);
}

template <typename T, typename Op>
void print_row(const ReportRow& row, const Options& options) {
  std::printf("%s\n", (options.csv ? csv_row(row, type_name<T>(), Op::name) : table_row(row)).c_str());
  std::fflush(stdout);
}

// A variant with the label it is printed under (the tour prefixes the chapter).
template <typename T, typename Op>
struct LabelledVariant {
  std::string label;
  Variant<T, Op> variant;
};

struct NoExtraRows {
  template <typename Bench>
  void operator()(Bench&) const {}
};

// Checks and times every selected variant at every --n, then calls after_size(bench) (or
// after_size(bench, rows), with the rows just printed) so a program can add rows or notes of
// its own. Returns false if any result was wrong.
template <typename T, typename Op, typename AfterSize = NoExtraRows>
bool run_variants(const std::vector<LabelledVariant<T, Op>>& variants, const Options& options, const DeviceInfo& device,
                  AfterSize&& after_size = AfterSize{}) {
  cudaStream_t stream = nullptr;  // the legacy default stream: what students' code uses too
  bool all_valid = true;
  for (std::size_t n : options.sizes) {
    double scratch = 0;
    for (const auto& v : variants)
      if (variant_selected(options, v.label)) scratch = std::max<double>(scratch, static_cast<double>(v.variant.scratch_for(n)));
    SizeBench<T, Op> bench(device, options, n, options.seed, scratch, stream);
    print_row<T, Op>(bench.copy_row(), options);
    std::vector<ReportRow> rows;
    for (const auto& v : variants) {
      if (!variant_selected(options, v.label)) continue;
      rows.push_back(bench.run(v.variant, v.label));
      const ReportRow& row = rows.back();
      all_valid = all_valid && (row.check == "ok" || row.check == "-" || row.check.rfind("skipped", 0) == 0);
      print_row<T, Op>(row, options);
    }
    if constexpr (std::is_invocable_v<AfterSize, SizeBench<T, Op>&, const std::vector<ReportRow>&>) after_size(bench, rows);
    else after_size(bench);
    if (!options.csv && options.sizes.size() > 1) std::printf("\n");
  }
  return all_valid;
}

template <typename T, typename Op>
std::vector<LabelledVariant<T, Op>> labelled(const std::vector<Variant<T, Op>>& variants, const std::string& prefix = "") {
  std::vector<LabelledVariant<T, Op>> result;
  for (const auto& v : variants) result.push_back({prefix + v.name, v});
  return result;
}

}  // namespace sg

// Chapter 10 - checking and timing compactions: the table, and the suite.
//
// The scan chapters' harness (common/bench.cuh) checks one output array against one
// reference; a compaction has two outputs (the survivors and their count), a predicate, and
// a second size (k, the number kept) in its model. So this chapter has its own small bench,
// built from the same pieces: seeded inputs, poisoned outputs, rotating buffer sets timed
// with CUDA events against a copy of the same n, the same report rows.
//
// For each n: the copy of n elements; then, for each rule (x > t, x != 0) and each --keep
// fraction, the chapter's own rows: the CPU versions (timed on the host) and its GPU
// variants; then, for each rule and fraction again, the libraries' rows (CUB, Thrust). A GPU
// row: poisoned output and count, one run checked against the CPU loop (count, every survivor
// in order, nothing written at or past out[count]); then timed, and every output the timed
// runs wrote checked again.
//
// A row that throws prints FAIL with the error, and the table goes on. Unless the error took
// the CUDA context with it (a fault in a kernel: an illegal address, a trap), which every later
// call would return: then the table stops, names the rows it could not run, and the program
// exits with code 1. Hence the order above: a library that faults costs none of the chapter's
// rows at that size.
// --n suite: the 2,022 sizes (fresh data, a rule and keep fraction per size), inputs drawn
// and outputs compared on the GPU against CUB's DeviceSelect::If, at powers of two also
// against the CPU loop.
#pragma once

#include "10_stream_compaction/baselines.cuh"
#include "10_stream_compaction/compaction.cuh"
#include "common/bench.cuh"
#include "common/device_oracle.cuh"  // compare_kernel
#include "common/suite.hpp"

#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace ch10 {

struct TableChoices {
  std::vector<double> keep = {0.01, 0.5, 0.99};
  std::vector<Rule> rules = {Rule::kGreater};
};

template <typename T>
struct LabelledCompactor {
  std::string label;
  Compactor<T> compactor;
};

// A library's compaction (CUB, Thrust) rather than one of the chapter's.
inline bool is_library(const std::string& label) { return label.find("baseline/") != std::string::npos; }

// ---- checking one output --------------------------------------------------------------------

// The survivors must be exactly `expected`, in order, the count must be their number, and
// everything at or past out[count] must still hold the poison.
template <typename T>
sg::Validation validate_compaction(const std::vector<T>& out, unsigned long long count, const std::vector<T>& expected) {
  sg::Validation result;
  if (count != expected.size()) {
    result.error = "count is " + std::to_string(count) + (count == 0xA5A5A5A5A5A5A5A5ull ? " (poison: never written)" : "") +
                   ", expected " + std::to_string(expected.size());
    return result;
  }
  sg::Expected<T> reference;
  reference.values.assign(expected.begin(), expected.end());
  reference.n = expected.size();
  result = sg::validate(std::vector<T>(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(expected.size())), reference);
  for (std::size_t i = expected.size(); i < out.size(); ++i) {
    if (sg::is_poison(out[i])) continue;
    if (result.mismatches == 0) {
      result.first_index = i;
      result.first_expected = "untouched (past the survivors)";
      result.first_got = sg::value_text(out[i]);
    }
    ++result.mismatches;
  }
  result.checked = out.size();
  return result;
}

// ---- the table ------------------------------------------------------------------------------

inline std::string keep_label(Rule rule, double keep) {
  char text[32];
  std::snprintf(text, sizeof text, " [%s %.2f]", rule_name(rule), keep);
  return text;
}

inline constexpr std::size_t kLargestCpuRow = std::size_t{1} << 26;  // above: no CPU rows
inline CompactionModel cpu_model(bool with_scan) { return with_scan ? model::cpu_with_scan : model::must_move; }

template <typename T>
class CompactionBench {
 public:
  CompactionBench(const sg::DeviceInfo& device, const sg::Options& options, std::size_t n, Rule rule, double keep,
                  double scratch_bytes, cudaStream_t stream)
      : options_(options), n_(n), stream_(stream), keep_(keep_fraction<T>(rule, keep)) {
    const std::size_t set_bytes = 2 * std::max<std::size_t>(n, 1) * sizeof(T);
    sets_ = options.timing ? sg::rotation_sets(set_bytes, device.l2_bytes) : 1;
    sg::require_device_memory(static_cast<double>(sets_) * set_bytes + scratch_bytes,
                              "n = " + std::to_string(n) + " (" + std::to_string(sets_) + " input/output buffer set" +
                                  (sets_ > 1 ? "s" : "") + " plus scratch)");
    input_ = compaction_input<T>(n, options.seed, rule, keep);
    expected_ = reference_compaction(input_, keep_);
    for (int s = 0; s < sets_; ++s) {
      inputs_.emplace_back(n);
      inputs_.back().upload(input_);
      outputs_.emplace_back(std::max<std::size_t>(n, 1));
    }
    counts_ = sg::DeviceBuffer<unsigned long long>(static_cast<std::size_t>(sets_));
    if (!options.timing) return;
    nvtxRangePushA("copy baseline (cudaMemcpy D2D)");
    copy_ = sg::time_device(
        [&](int rep) {
          const int s = rep % sets_;
          SG_CUDA(cudaMemcpyAsync(outputs_[s].data(), inputs_[s].data(), n_ * sizeof(T), cudaMemcpyDeviceToDevice, stream_));
        },
        options.warmup, options.iters, stream_);
    nvtxRangePop();
  }

  std::size_t kept() const { return expected_.size(); }

  sg::ReportRow copy_row() const {
    sg::ReportRow row = row_for("baseline: cudaMemcpy D2D", copy_, 2.0 * static_cast<double>(n_ * sizeof(T)));
    if (!options_.timing) row.variant += " (not timed)";
    row.effective_gb_per_s = options_.timing && copy_.median_ms > 0 ? 2.0 * static_cast<double>(n_ * sizeof(T)) / (copy_.median_ms * 1e6) : 0;
    row.check = "-";
    return row;
  }

  // The CPU versions, timed on the host (a few runs: they take 100s of ms at 2^26).
  sg::ReportRow cpu_row(const std::string& label, bool with_scan) const {
    if (n_ > kLargestCpuRow) return untimed_row(label, cpu_model(with_scan), "skipped: the CPU rows stop at 2^26");  // the host tests check them
    std::vector<T> out(n_);
    std::vector<std::size_t> offsets(with_scan ? n_ : 0);
    auto run = [&] {
      return with_scan ? cpu_compact_with_scan(input_.data(), out.data(), offsets.data(), n_, keep_)
                       : cpu_compact_loop(input_.data(), out.data(), n_, keep_);
    };
    sg::Timing timing;
    std::size_t count = run();
    if (options_.timing) timing = sg::time_host([&] { count = run(); }, 0, std::min(options_.iters, 3));
    out.resize(count);
    sg::ReportRow row = row_for(label, timing, model_of(cpu_model(with_scan)));
    row.check = !options_.check ? "-" : out == expected_ ? "ok" : "FAIL: differs from the loop";
    return row;
  }

  // A row that was not run, or did not finish: the model's columns and `check`.
  sg::ReportRow untimed_row(const std::string& label, CompactionModel model, const std::string& check) const {
    sg::ReportRow row = row_for(label, sg::Timing{}, model_of(model));
    row.timed = false;
    row.check = check;
    return row;
  }

  sg::ReportRow run(const Compactor<T>& variant, const std::string& label) {
    if (const std::string why = variant.skip_reason(n_); !why.empty()) return untimed_row(label, variant.model_bytes, why);
    nvtxRangePushA(label.c_str());
    sg::Validation before, after;
    std::string stuck_before, stuck_after;
    if (options_.check) {
      before = check_set(variant, 0, true);
      stuck_before = sg::stuck_wait_report();
    }
    sg::Timing timing;
    if (options_.timing) {
      poison_all();
      timing = sg::time_device(
          [&](int rep) {
            const int s = rep % sets_;
            variant.launch(inputs_[s].data(), outputs_[s].data(), counts_.data() + s, n_, keep_, stream_);
          },
          options_.warmup, options_.iters, stream_);
      stuck_after = sg::stuck_wait_report();
      if (options_.check)
        for (int s = 0; s < std::min(sets_, options_.warmup + options_.iters) && after.ok(); ++s) after = check_set(variant, s, false);
    }
    nvtxRangePop();
    sg::ReportRow row = row_for(label, timing, model_of(variant.model_bytes));
    row.timed = options_.timing;
    row.check = sg::check_verdict(options_.check, stuck_before, stuck_after, before, after);
    return row;
  }

 private:
  double model_of(CompactionModel model) const { return model(n_, kept(), sizeof(T)); }

  sg::ReportRow row_for(const std::string& label, const sg::Timing& timing, double model_bytes) const {
    sg::ReportRow row;
    row.variant = label;
    row.n = n_;
    row.median_ms = timing.median_ms;
    row.min_ms = timing.min_ms;
    row.effective_gb_per_s = timing.median_ms > 0 ? model::must_move(n_, kept(), sizeof(T)) / (timing.median_ms * 1e6) : 0.0;
    row.ratio_to_copy = copy_.median_ms > 0 ? timing.median_ms / copy_.median_ms : 0.0;
    const double copy_bytes = 2.0 * static_cast<double>(n_) * sizeof(T);
    row.model_ratio = copy_bytes > 0 ? model_bytes / copy_bytes : 0.0;
    row.model_bytes = model_bytes;
    row.timed = options_.timing;
    return row;
  }

  void poison_all() {
    for (auto& out : outputs_) sg::poison(out, stream_);
    SG_CUDA(cudaMemsetAsync(counts_.data(), 0xA5, counts_.bytes(), stream_));
  }

  // With `launch`: poison set s, run once, then check; without: check what the timed runs left.
  sg::Validation check_set(const Compactor<T>& variant, int s, bool launch) {
    if (launch) {
      poison_all();
      variant.launch(inputs_[s].data(), outputs_[s].data(), counts_.data() + s, n_, keep_, stream_);
      SG_CUDA(cudaStreamSynchronize(stream_));
    }
    unsigned long long count = 0;
    SG_CUDA(cudaMemcpy(&count, counts_.data() + s, sizeof count, cudaMemcpyDeviceToHost));
    return validate_compaction(outputs_[s].download(n_), count, expected_);
  }

  const sg::Options& options_;
  std::size_t n_;
  cudaStream_t stream_;
  Keep<T> keep_;
  int sets_ = 1;
  std::vector<T> input_, expected_;
  std::vector<sg::DeviceBuffer<T>> inputs_, outputs_;
  sg::DeviceBuffer<unsigned long long> counts_;
  sg::Timing copy_;
};

template <typename T>
void print_compaction_row(const sg::ReportRow& row, const sg::Options& options) {
  std::printf("%s\n", (options.csv ? sg::csv_row(row, sg::type_name<T>(), "compact") : sg::table_row(row)).c_str());
  std::fflush(stdout);
}

// ---- the suite ------------------------------------------------------------------------------

template <typename T>
__global__ void fill_compaction_kernel(T* out, std::size_t n, std::uint64_t seed, Rule rule, double keep) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = compaction_value<T>(seed, i, rule, keep);
}

// The rule and keep fraction of the suite's i-th compaction: every fraction the lesson
// names, plus none and all, in turn.
inline void suite_case(std::size_t i, Rule& rule, double& keep) {
  static constexpr double kFractions[] = {0.5, 0.01, 0.99, 0.0, 1.0, 0.25, 0.75};
  keep = kFractions[i % 7];
  rule = (i / 7) % 2 == 0 ? Rule::kGreater : Rule::kNonZero;
}

template <typename T>
bool run_compaction_suite(const std::vector<LabelledCompactor<T>>& all, const sg::Options& options) {
  if constexpr (!std::is_integral_v<T>) {
    (void)all;
    throw sg::UsageError("--n suite compares every output exactly on the GPU: use --type int32 or int64");
  } else {
    cudaStream_t stream = nullptr;
    std::vector<LabelledCompactor<T>> variants;
    for (const auto& v : all)  // the CPU rows and the libraries are not what the suite tests
      if (sg::variant_selected(options, v.label) && !is_library(v.label)) variants.push_back(v);
    if (variants.empty()) throw sg::UsageError("--n suite: no GPU compaction of this chapter selected");
    if (options.timing) throw sg::UsageError("this chapter's suite validates only: add --no-timing");
    const std::size_t largest = *std::max_element(options.sizes.begin(), options.sizes.end());
    if (largest > kSelectIfMaxItems)  // CUB is the suite's reference: not where it faults (baselines.cuh)
      throw sg::UsageError("--n suite compares every output with CUB's, but CUB is " + select_if_skipped());
    double scratch = 0;
    for (const auto& v : variants) scratch = std::max<double>(scratch, static_cast<double>(v.compactor.scratch_for(largest)));
    scratch = std::max<double>(scratch, static_cast<double>(cub_select_scratch_bytes<T>(largest)));
    sg::require_device_memory(3.0 * static_cast<double>(largest) * sizeof(T) + scratch,
                              "the suite (largest n = " + std::to_string(largest) + ": input, output, CUB's output and scratch)");
    sg::DeviceBuffer<T> input(largest), output(largest), expected(largest);
    sg::DeviceBuffer<unsigned long long> counts(2);
    sg::DeviceBuffer<sg::DeviceComparison> comparison(1);
    std::vector<std::size_t> runs(variants.size()), failed(variants.size());
    std::vector<std::string> first_failure(variants.size());

    const std::size_t total = options.sizes.size() * static_cast<std::size_t>(options.repeat);
    if (!options.csv)
      std::printf("suite: %zu sizes x %d repetition%s, fresh data, a rule and keep fraction per size; every output compared on\n"
                  "the GPU with CUB's DeviceSelect::If (count, survivors, nothing written past them), at powers of two also\n"
                  "with the CPU loop\n\n",
                  options.sizes.size(), options.repeat, options.repeat > 1 ? "s" : "");
    std::size_t done = 0;
    for (int repetition = 0; repetition < options.repeat; ++repetition) {
      for (std::size_t i = 0; i < options.sizes.size(); ++i, ++done) {
        const std::size_t n = options.sizes[i];
        const std::uint64_t seed = options.seed + done;
        Rule rule;
        double fraction;
        suite_case(done, rule, fraction);
        const Keep<T> keep = keep_fraction<T>(rule, fraction);
        if (n > 0) {
          fill_compaction_kernel<T><<<std::min<unsigned>(sg::blocks_for(n, 256), 4096), 256, 0, stream>>>(input.data(), n, seed, rule,
                                                                                                        fraction);
          SG_CHECK_LAUNCH();
        }
        // CUB's answer, into a poisoned buffer: past its count the poison stays, and so must ours
        sg::poison(expected, stream);
        cub_compact(input.data(), expected.data(), counts.data() + 1, n, keep, stream);
        unsigned long long expected_count = 0;
        SG_CUDA(cudaMemcpy(&expected_count, counts.data() + 1, sizeof expected_count, cudaMemcpyDeviceToHost));
        std::string cpu_failure;
        if (n > 0 && (n & (n - 1)) == 0 && n <= (std::size_t{1} << 26)) {  // the independent check of CUB and the inputs
          const std::vector<T> survivors = reference_compaction(compaction_input<T>(n, seed, rule, fraction), keep);
          const sg::Validation cub_check = validate_compaction(expected.download(n), expected_count, survivors);
          if (!cub_check.ok()) cpu_failure = "CUB against the CPU loop: " + cub_check.summary();
        }

        for (std::size_t v = 0; v < variants.size(); ++v) {
          std::string failure = cpu_failure;
          nvtxRangePushA(variants[v].label.c_str());
          sg::poison(output, stream);
          SG_CUDA(cudaMemsetAsync(counts.data(), 0xA5, sizeof(unsigned long long), stream));
          variants[v].compactor.launch(input.data(), output.data(), counts.data(), n, keep, stream);
          SG_CUDA(cudaStreamSynchronize(stream));
          nvtxRangePop();
          if (const std::string stuck = sg::stuck_wait_report(); !stuck.empty() && failure.empty()) failure = stuck;
          unsigned long long count = 0;
          SG_CUDA(cudaMemcpy(&count, counts.data(), sizeof count, cudaMemcpyDeviceToHost));
          if (failure.empty() && count != expected_count)
            failure = "count " + std::to_string(count) + ", CUB " + std::to_string(expected_count);
          if (failure.empty() && n > 0) {  // all n: the survivors, and the poison past them
            const sg::DeviceComparison zero{0, 0, ~0ull};
            SG_CUDA(cudaMemcpy(comparison.data(), &zero, sizeof zero, cudaMemcpyHostToDevice));
            sg::compare_kernel<T><<<std::min<unsigned>(sg::blocks_for(n, 256), 2048), 256, 0, stream>>>(output.data(), expected.data(), n,
                                                                                                   comparison.data());
            SG_CHECK_LAUNCH();
            sg::DeviceComparison result{};
            SG_CUDA(cudaMemcpy(&result, comparison.data(), sizeof result, cudaMemcpyDeviceToHost));
            if (result.mismatches > 0)
              failure = std::to_string(result.mismatches) + " of " + std::to_string(n) + " elements differ from CUB's (" +
                        std::to_string(result.unwritten) + " never written); first at " + std::to_string(result.first) +
                        (result.first >= count ? ", past the survivors" : "");
          }
          ++runs[v];
          if (failure.empty()) continue;
          ++failed[v];
          const std::string where = "n = " + std::to_string(n) + keep_label(rule, fraction) + " (seed " + std::to_string(seed) + "): " + failure;
          if (first_failure[v].empty()) first_failure[v] = where;
          std::printf("FAIL %s at %s\n", variants[v].label.c_str(), where.c_str());
        }
        if (!options.csv && ((done + 1) % 500 == 0 || done + 1 == total)) {
          std::size_t failures = 0;
          for (std::size_t f : failed) failures += f;
          std::printf("... %zu of %zu sizes done, %zu failed compactions so far\n", done + 1, total, failures);
          std::fflush(stdout);
        }
      }
    }
    std::size_t all_runs = 0, all_failed = 0;
    std::printf("\n%-44s %12s %8s  %s\n", "variant", "compactions", "failed", "first failure");
    for (std::size_t v = 0; v < variants.size(); ++v) {
      std::printf("%-44s %12zu %8zu  %s\n", variants[v].label.c_str(), runs[v], failed[v],
                  first_failure[v].empty() ? "-" : first_failure[v].c_str());
      all_runs += runs[v];
      all_failed += failed[v];
    }
    std::printf("suite: %zu compactions, %zu failed (seed %llu; rerun with --n suite --seed %llu)\n", all_runs, all_failed,
                static_cast<unsigned long long>(options.seed), static_cast<unsigned long long>(options.seed));
    return all_failed == 0;
  }
}

// ---- the program's body: every size, rule and fraction ---------------------------------------

// One row of the table: a CPU version (gpu == nullptr) or a GPU variant, at the size_index-th
// --n, one rule and one fraction.
template <typename T>
struct TableRow {
  std::size_t size_index = 0;
  std::size_t n = 0;
  Rule rule = Rule::kGreater;
  double keep = 0;
  std::string label;
  const LabelledCompactor<T>* gpu = nullptr;
  bool cpu_with_scan = false;

  CompactionModel model() const { return gpu != nullptr ? gpu->compactor.model_bytes : cpu_model(cpu_with_scan); }
  bool same_input(const TableRow& other) const { return size_index == other.size_index && rule == other.rule && keep == other.keep; }
};

// The selected rows in the order they run: at each size, the chapter's own for every rule and
// fraction, then the libraries' (see the top of this file).
template <typename T>
std::vector<TableRow<T>> plan_table(const std::vector<LabelledCompactor<T>>& variants, const sg::Options& options,
                                    const TableChoices& choices, const std::string& prefix) {
  std::vector<TableRow<T>> rows;
  for (std::size_t size = 0; size < options.sizes.size(); ++size)
    for (bool libraries : {false, true})
      for (Rule rule : choices.rules)
        for (double keep : choices.keep) {
          const std::size_t n = options.sizes[size];
          const std::string tag = keep_label(rule, keep);
          for (bool with_scan : {false, true}) {
            const std::string label = prefix + (with_scan ? "cpu/with_scan" : "cpu/loop") + tag;
            if (!libraries && sg::variant_selected(options, label)) rows.push_back({size, n, rule, keep, label, nullptr, with_scan});
          }
          for (const auto& v : variants)
            if (is_library(v.label) == libraries && sg::variant_selected(options, v.label + tag))
              rows.push_back({size, n, rule, keep, v.label + tag, &v, false});
        }
  return rows;
}

// After an error: the one that took the CUDA context, or cudaSuccess if the context still
// works. A bad launch configuration or a failed allocation is reported once and cleared; a
// fault in a kernel is sticky: synchronising returns it again, however often it is cleared.
inline cudaError_t lost_context_error() {
  cudaGetLastError();
  if (cudaDeviceSynchronize() == cudaSuccess) return cudaSuccess;
  cudaGetLastError();
  return cudaDeviceSynchronize();
}

// Why the table stops (`where` the error showed), and the rows from rows[first_not_run] on that it
// cannot run: the context is lost, and every later CUDA call would fail.
template <typename T>
std::string context_lost(cudaError_t error, const std::string& where, const std::vector<TableRow<T>>& rows, std::size_t first_not_run) {
  std::string text = std::string("the CUDA context is lost (") + cudaGetErrorName(error) + ": " + cudaGetErrorString(error) + ") " +
                     where + "; every later CUDA call fails, so ";
  if (first_not_run == rows.size()) return text + "the table ends here (that was its last row)";
  text += std::to_string(rows.size() - first_not_run) + " row(s) could not be run:";
  for (std::size_t r = first_not_run; r < rows.size(); ++r) text += "\n  " + rows[r].label + " at n = " + std::to_string(rows[r].n);
  return text;
}

// Returns false if a result was wrong or a row failed; throws EnvironmentError (exit code 3)
// if the only failures were a lack of memory, and CudaError (exit code 1) once the context is lost.
template <typename T>
bool run_compaction_table(const std::vector<LabelledCompactor<T>>& variants, const sg::Options& options, const sg::DeviceInfo& device,
                          const TableChoices& choices, const std::string& prefix) {
  if (options.suite) return run_compaction_suite(variants, options);
  cudaStream_t stream = nullptr;
  const std::vector<TableRow<T>> rows = plan_table(variants, options, choices, prefix);
  std::unique_ptr<CompactionBench<T>> bench;  // the input of the row being run
  bool all_valid = true;
  std::string memory_failure;  // the first failure for lack of memory
  // A failure that left the context working: counted, and said in the row (or line) it ends.
  auto failure = [&](const std::exception& error) {
    std::string text = sg::error_text(error);
    if (const std::string stuck = sg::stuck_wait_report(); !stuck.empty()) text += "; " + stuck;  // not the next row's
    if (!sg::is_environment_error(error)) all_valid = false;
    else if (memory_failure.empty()) memory_failure = text;
    return text;
  };
  std::size_t copy_printed = rows.size();  // the size_index whose copy row is printed
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const TableRow<T>& row = rows[r];
    if (r == 0 || !row.same_input(rows[r - 1])) {
      double scratch = 0;  // for every selected variant that runs at this n
      for (const auto& v : variants)
        if (sg::variant_selected(options, v.label) && v.compactor.skip_reason(row.n).empty())
          scratch = std::max<double>(scratch, static_cast<double>(v.compactor.scratch_for(row.n)));
      bench.reset();  // its buffers are freed before the next input's are allocated
      try {
        bench = std::make_unique<CompactionBench<T>>(device, options, row.n, row.rule, row.keep, scratch, stream);
      } catch (const std::exception& error) {
        if (const cudaError_t lost = lost_context_error(); lost != cudaSuccess)
          throw sg::CudaError(lost, context_lost(lost, "while preparing the input of " + row.label + " at n = " + std::to_string(row.n), rows, r));
        std::printf("%sn = %zu%s: not run: %s\n", options.csv ? "# " : "", row.n, keep_label(row.rule, row.keep).c_str(),
                    failure(error).c_str());
      }
      if (bench && copy_printed != row.size_index) {
        print_compaction_row<T>(bench->copy_row(), options);
        copy_printed = row.size_index;
      }
    }
    if (bench) {
      sg::ReportRow result;
      try {
        result = row.gpu != nullptr ? bench->run(row.gpu->compactor, row.label) : bench->cpu_row(row.label, row.cpu_with_scan);
        all_valid = all_valid && (result.check == "ok" || result.check == "-" || result.check.rfind("skipped", 0) == 0);
      } catch (const std::exception& error) {
        const cudaError_t lost = lost_context_error();
        result = bench->untimed_row(row.label, row.model(), "FAIL: " + (lost != cudaSuccess ? sg::error_text(error) : failure(error)));
        if (lost != cudaSuccess) {
          print_compaction_row<T>(result, options);
          throw sg::CudaError(lost, context_lost(lost, "in " + row.label + " at n = " + std::to_string(row.n), rows, r + 1));
        }
      }
      print_compaction_row<T>(result, options);
    }
    if (!options.csv && options.sizes.size() > 1 && (r + 1 == rows.size() || rows[r + 1].size_index != row.size_index)) std::printf("\n");
  }
  if (all_valid && !memory_failure.empty()) throw sg::EnvironmentError(memory_failure);
  return all_valid;
}

}  // namespace ch10

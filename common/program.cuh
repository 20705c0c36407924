// common/program.cuh - main() of every chapter program: flags, device, table, exit code.
//
//   int main(int argc, char** argv) { return sg::chapter_main<ch03::Chapter>(argc, argv); }
//
// Exit codes: 0 all results valid; 1 a result was wrong (or a kernel faulted); 2 bad flags;
// 3 no CUDA device, or the problem does not fit in memory. Every failure prints one line
// that says what went wrong, never a bare crash.
#pragma once

#include "common/bench.cuh"
#include "common/check.cuh"
#include "common/device_info.cuh"
#include "common/flags.hpp"
#include "common/suite_runner.cuh"

#include <cstdint>
#include <cstdio>
#include <new>
#include <string>
#include <vector>

namespace sg {

// Parses flags, finds the device and runs body(options, device) -> bool (all valid).
template <typename Body>
int program_main(int argc, char** argv, const std::string& title, const Options& defaults, Body&& body) {
  try {
    Options options = parse_options(argc, argv, defaults);
    if (options.help) {
      std::printf("%s", usage(argc > 0 ? argv[0] : "program", title, defaults).c_str());
      return kExitOk;
    }
    if (options.variant_names) {
      const std::vector<std::string> names = options.variant_names(options);
      if (options.list) {
        for (const std::string& name : names) std::printf("%s\n", name.c_str());
        return kExitOk;
      }
      require_variants_match(options, names);
    } else if (options.list) {
      throw UsageError("--list: this program has no list of variants");
    }
    if (!options.seed_given) {
      options.seed = fresh_seed();
      options.seed_given = true;
    }
    if (options.suite) options.sizes = problem_suite(options.seed);
    const DeviceInfo device = require_device();
    return body(options, device) ? kExitOk : kExitInvalid;
  } catch (const UsageError& error) {
    std::fprintf(stderr, "error: %s\nrun with --help to see the flags\n", error.what());
    return kExitUsage;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: %s\n", error_text(error).c_str());
    return is_environment_error(error) ? kExitEnvironment : kExitInvalid;
  }
}

// Calls f(T{}, Op{}) for the element type and operator chosen by --type and --op.
template <typename F>
bool with_type_and_op(const Options& options, F&& f) {
  auto with_op = [&](auto element) {
    return options.op == "max" ? f(element, Max{}) : f(element, Sum{});
  };
  if (options.type == "int64") return with_op(std::int64_t{});
  if (options.type == "float") return with_op(float{});
  return with_op(std::int32_t{});
}

// The table over every --n (run_variants), or the 2,022-size suite (run_suite).
template <typename T, typename Op, typename AfterSize = NoExtraRows>
bool run_table_or_suite(const std::vector<LabelledVariant<T, Op>>& variants, const Options& options, const DeviceInfo& device,
                        AfterSize&& after_size = AfterSize{}) {
  if (options.suite) return run_suite(variants, options, device);
  return run_variants(variants, options, device, after_size);
}

// Runs every variant of one chapter; after_size(bench) may add rows at each size.
template <typename Chapter, typename AfterSize = NoExtraRows>
bool run_chapter(const Options& options, const DeviceInfo& device, AfterSize&& after_size = AfterSize{}) {
  return with_type_and_op(options, [&](auto element, auto op) {
    using T = decltype(element);
    using Op = decltype(op);
    print_preamble(std::string("Scan Gallery ") + Chapter::id + ": " + Chapter::title, device, options, type_name<T>(), Op::name);
    return run_table_or_suite(labelled(Chapter::template variants<T, Op>()), options, device, after_size);
  });
}

// The names of a chapter's variants for the options' type and operator.
template <typename Chapter>
std::vector<std::string> variant_names(const Options& options) {
  std::vector<std::string> names;
  with_type_and_op(options, [&](auto element, auto op) {
    for (const auto& variant : Chapter::template variants<decltype(element), decltype(op)>()) names.push_back(variant.name);
    return true;
  });
  return names;
}

// A chapter program's defaults: `defaults`, with the chapter's variant names for --list and --variant.
template <typename Chapter>
Options chapter_options(Options defaults = Options{}) {
  defaults.variant_names = variant_names<Chapter>;
  return defaults;
}

template <typename Chapter>
int chapter_main(int argc, char** argv, const Options& defaults = Options{}) {
  return program_main(argc, argv, std::string(Chapter::id) + ": " + Chapter::title, chapter_options<Chapter>(defaults),
                      [](const Options& options, const DeviceInfo& device) { return run_chapter<Chapter>(options, device); });
}

}  // namespace sg

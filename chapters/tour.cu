// The Scan Gallery tour: every variant of every chapter, over a sweep of sizes, in one
// table. Each size is measured against a device-to-device copy of the same size in the
// same run, and each variant's "model" column is what its traffic model predicts. Chapters
// whose variants are not scans (10: compaction) follow with a table of their own.
//
// Run: cmake --workflow --preset tour      (or ./build/bin/tour --n 2^20,2^26 --csv > tour.csv)
#include "tour_chapters.cuh"

#include "common/program.cuh"

int main(int argc, char** argv) {
  sg::Options defaults;
  defaults.sizes = {std::size_t{1} << 18, std::size_t{1} << 22, std::size_t{1} << 26};
  defaults.iters = 20;
  defaults.warmup = 3;
  defaults.variant_names = tour::variant_names;
  return sg::program_main(argc, argv, "the Scan Gallery tour: every chapter's variants against a copy", defaults,
                          [](const sg::Options& options, const sg::DeviceInfo& device) {
    const bool scans_valid = sg::with_type_and_op(options, [&](auto element, auto op) {
      using T = decltype(element);
      using Op = decltype(op);
      sg::print_preamble("Scan Gallery tour: every chapter's variants against a copy", device, options, sg::type_name<T>(), Op::name);
      return sg::run_table_or_suite(tour::all_variants<T, Op>(), options, device);
    });
    const bool own_tables_valid = tour::own_tables(options, device);  // runs even when a scan failed
    return scans_valid && own_tables_valid;
  });
}

// Chapter 11 - the variant list: each algorithm inclusive and exclusive.
#include "11_multi_gpu_scan/table.cuh"
#include "11_multi_gpu_scan/variants.cuh"

#include <cstdint>
#include <cstdio>
#include <memory>

namespace ch11 {

template <typename T, typename Op>
std::vector<MultiGpuVariant<T, Op>> Chapter::variants() {
  return {
      {"scan_exchange_fixup/inclusive", scan_exchange_fixup<T, Op, false>, false, 4.0},
      {"scan_exchange_fixup/exclusive", scan_exchange_fixup<T, Op, true>, true, 4.0},
      {"reduce_exchange_scan/inclusive", reduce_exchange_scan<T, Op, false>, false, 3.0},
      {"reduce_exchange_scan/exclusive", reduce_exchange_scan<T, Op, true>, true, 3.0},
  };
}

template std::vector<MultiGpuVariant<std::int32_t, sg::Sum>> Chapter::variants<std::int32_t, sg::Sum>();
template std::vector<MultiGpuVariant<std::int64_t, sg::Sum>> Chapter::variants<std::int64_t, sg::Sum>();
template std::vector<MultiGpuVariant<float, sg::Sum>> Chapter::variants<float, sg::Sum>();
template std::vector<MultiGpuVariant<std::int32_t, sg::Max>> Chapter::variants<std::int32_t, sg::Max>();
template std::vector<MultiGpuVariant<std::int64_t, sg::Max>> Chapter::variants<std::int64_t, sg::Max>();
template std::vector<MultiGpuVariant<float, sg::Max>> Chapter::variants<float, sg::Max>();
template std::vector<MultiGpuVariant<std::int64_t, sg::AffineCompose>> Chapter::variants<std::int64_t, sg::AffineCompose>();

namespace {

template <typename T, typename Op>
bool run_typed(const sg::Options& options, const std::vector<int>& gpu_counts, bool timeline) {
  std::vector<std::unique_ptr<Gpus>> machines;
  for (int count : gpu_counts) machines.push_back(std::make_unique<Gpus>(count));
  bool all_valid = true;
  print_header(options.csv);
  for (std::size_t n : options.sizes) {
    Row single;
    single.variant = "1 GPU: 09 v4/tuned/inclusive";
    single.n = n;
    if (options.timing) {
      single = single_gpu_row<T, Op>(n, options, machines.front()->stream(0));
      print_row(single, options.csv);
    }
    for (const auto& gpus : machines) {
      require_shards_fit(*gpus, n, sizeof(T));
      Distributed<T> data(*gpus, n);
      gpus->on_each([&](int g) {
        sg::fill_random<T, Op>(data.in[g].data(), data.ranges[g].count, options.seed, gpus->stream(g), data.ranges[g].begin);
      });
      for (const auto& variant : Chapter::variants<T, Op>()) {
        if (!sg::variant_selected(options, variant.name)) continue;
        const Row row = run_variant<T, Op>(*gpus, data, variant,
                                           variant.exclusive ? check_distributed<T, Op, true> : check_distributed<T, Op, false>, options,
                                           single, timeline);
        all_valid = all_valid && (row.check == "ok" || row.check == "-" || row.check.rfind("unchecked", 0) == 0);
        print_row(row, options.csv);
        if (!options.csv) std::printf("%s", row.timeline.c_str());
      }
    }
  }
  return all_valid;
}

}  // namespace

bool run_program(const sg::Options& options, const sg::DeviceInfo& device, const std::vector<int>& gpu_counts, bool timeline) {
  const char* c = options.csv ? "# " : "";
  std::printf("%sScan Gallery %s: %s\n%sdevice 0: %s (%d visible)\n", c, Chapter::id, Chapter::title, c, sg::describe(device).c_str(),
              visible_gpus());
  const char* nvls = std::getenv("NCCL_NVLS_ENABLE");
  std::printf("%s%s %s | seed %llu (rerun with --seed %llu) | NCCL %d.%d.%d, NCCL_NVLS_ENABLE=%s | median and min of %d timed runs\n", c,
              options.type.c_str(), options.op.c_str(), static_cast<unsigned long long>(options.seed),
              static_cast<unsigned long long>(options.seed), NCCL_MAJOR, NCCL_MINOR, NCCL_PATCH, nvls != nullptr ? nvls : "0 (set here)",
              options.iters);
  std::printf("%sx 1GPU = chapter 09's scan of the whole array on one GPU / this time; eff. = x 1GPU / GPUs; NCCL = share of the\n"
              "%stime in the exchange (longest GPU); model = the best efficiency the variant's bytes allow (2n against G x its bytes)\n",
              c, c);
  if (options.suite) throw sg::UsageError("this chapter has no --n suite: its tests run the sizes that break scans on every GPU count");
  if (timeline && (options.csv || !options.timing))
    throw sg::UsageError("--timeline draws timed runs in the table: not with --csv or --no-timing");
  if (options.type == "int64") return options.op == "max" ? run_typed<std::int64_t, sg::Max>(options, gpu_counts, timeline)
                                                          : run_typed<std::int64_t, sg::Sum>(options, gpu_counts, timeline);
  if (options.type == "float") return options.op == "max" ? run_typed<float, sg::Max>(options, gpu_counts, timeline)
                                                          : run_typed<float, sg::Sum>(options, gpu_counts, timeline);
  return options.op == "max" ? run_typed<std::int32_t, sg::Max>(options, gpu_counts, timeline) : run_typed<std::int32_t, sg::Sum>(options, gpu_counts, timeline);
}

}  // namespace ch11

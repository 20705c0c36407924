// Chapter 00 - speed of light. Prints the copy kernels, CUB's scan and the CPU scan
// against a device-to-device copy, then the machine balance that makes scan memory-bound.
//
// Run: ./build/bin/00_speed_of_light --n 2^26
#include "00_speed_of_light/variants.cuh"
#include "common/program.cuh"

#include <cstdio>
#include <type_traits>
#include <vector>

namespace {

// Arithmetic lanes per SM, from the CUDA programming guide's throughput table.
struct Lanes {
  int fp32;
  int int32;
};
Lanes lanes_per_sm(int major, int minor) {
  if (major >= 9 || (major == 8 && minor >= 6)) return {128, 64};  // sm_86, sm_89, sm_90 (H100/H200) and later
  return {64, 64};                                                 // sm_70, sm_75, sm_80 (V100, T4, A100)
}

void print_machine_balance(const sg::DeviceInfo& device, double copy_gb_per_s) {
  const Lanes lanes = lanes_per_sm(device.major, device.minor);
  const double ghz = device.sm_clock_khz / 1e6;
  const double int32_adds = device.sm_count * lanes.int32 * ghz * 1e9;
  const double fp32_flops = device.sm_count * lanes.fp32 * 2.0 * ghz * 1e9;  // a fused multiply-add is 2 FLOP
  const double bytes_per_s = copy_gb_per_s * 1e9;
  std::printf("\nmachine balance (why scan is memory-bound):\n");
  std::printf("  int32 adds   %d SMs x %d lanes x %.2f GHz = %.1f Tops/s\n", device.sm_count, lanes.int32, ghz, int32_adds / 1e12);
  std::printf("  fp32 FMA     %d SMs x %d lanes x 2 x %.2f GHz = %.1f TFLOP/s\n", device.sm_count, lanes.fp32, ghz, fp32_flops / 1e12);
  std::printf("  memory       %.0f GB/s measured by the copy above (datasheet %.0f GB/s)\n", copy_gb_per_s,
              device.peak_bandwidth_gb_per_s());
  std::printf("  balance      %.1f int32 adds (%.1f fp32 FLOP) per byte moved\n", int32_adds / bytes_per_s, fp32_flops / bytes_per_s);
  std::printf("  a scan needs 1 add per element, i.e. per 8 bytes read and written: 0.125 adds per byte for int32,\n");
  std::printf("  so the adders could go ~%.0fx faster than memory can feed them: scan is memory-bound, and\n",
              int32_adds / bytes_per_s / 0.125);
  std::printf("  the fastest scan moves its 2n elements as fast as a copy. (A real kernel issues 10-20 instructions\n");
  std::printf("  per element - loads, stores, index arithmetic, shuffles, barriers - which eats most of that margin.)\n");
}

}  // namespace

int main(int argc, char** argv) {
  using Chapter = ch00::Chapter;
  return sg::program_main(argc, argv, std::string(Chapter::id) + ": " + Chapter::title, sg::chapter_options<Chapter>(),
                          [](const sg::Options& options, const sg::DeviceInfo& device) {
    double copy_gb_per_s = 0.0;
    // After the GPU rows of each size: the CPU's sequential scan, the O(n) reference.
    auto cpu_scan_row = [&](auto& bench) {
      using Bench = std::decay_t<decltype(bench)>;
      using T = typename Bench::value_type;
      using Op = typename Bench::op_type;
      std::vector<T> out(bench.n());
      const sg::Timing cpu =
          sg::time_host([&] { sg::sequential_inclusive_scan(bench.input().data(), out.data(), bench.n(), Op{}); }, 1, 5);
      sg::print_row<T, Op>(bench.timed_row("cpu/sequential_inclusive_scan", cpu, sg::Computes::InclusiveScan, sg::model::read_write),
                           options);
      const double ms = bench.copy_timing().median_ms;
      copy_gb_per_s = ms > 0 ? sg::copy_bytes(bench.n(), sizeof(T)) / (ms * 1e6) : 0.0;
    };
    const bool valid = sg::run_chapter<Chapter>(options, device, cpu_scan_row);
    if (!options.csv) print_machine_balance(device, copy_gb_per_s);
    return valid;
  });
}

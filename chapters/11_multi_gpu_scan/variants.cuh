// Chapter 11 - scan across GPUs with NCCL: the chapter's declaration. Its variants take an
// array spread over several GPUs (gpus.cuh), so the chapter runs its own table (table.cuh);
// it is built only where NCCL is found (CMakeLists.txt) and is not part of the tour, which
// runs on one GPU.
#pragma once

#include "11_multi_gpu_scan/multi_gpu_scan.cuh"
#include "common/device_info.cuh"
#include "common/flags.hpp"

#include <vector>

namespace ch11 {

struct Chapter {
  static constexpr const char* id = "11_multi_gpu_scan";
  static constexpr const char* title = "scan across GPUs with NCCL: scan-exchange-fix-up and reduce-exchange-scan";
  template <typename T, typename Op>
  static std::vector<MultiGpuVariant<T, Op>> variants();
};

// The program's body: every --n over every GPU count in `gpu_counts`; with `timeline`, each timed
// row is followed by the median run's phases on each GPU.
bool run_program(const sg::Options& options, const sg::DeviceInfo& device, const std::vector<int>& gpu_counts, bool timeline);

}  // namespace ch11

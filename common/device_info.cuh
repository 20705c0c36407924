// common/device_info.cuh - which GPU we run on, and clear errors when we cannot run.
//
// Every program prints the device first (name, SMs, L2, memory): timings mean little
// without it. No CUDA device, or a problem that does not fit in device memory, is an
// EnvironmentError: main() prints its message and exits with code 3, never a crash.
#pragma once

#include "common/check.cuh"

#include <cstddef>
#include <cstdio>
#include <new>
#include <stdexcept>
#include <string>

namespace sg {

struct EnvironmentError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Errors of the machine rather than of the program (exit code 3): no device, a size the memory
// checks refused, a failed device or host allocation.
inline bool is_environment_error(const std::exception& error) {
  if (dynamic_cast<const std::bad_alloc*>(&error) != nullptr || dynamic_cast<const EnvironmentError*>(&error) != nullptr) return true;
  const auto* cuda = dynamic_cast<const CudaError*>(&error);
  return cuda != nullptr && cuda->code() == cudaErrorMemoryAllocation;
}

// An error as the programs say it. A failed host allocation reads "out of host memory", which
// the tests look for to skip on a machine too small (tests/expect_exit.cmake).
inline std::string error_text(const std::exception& error) {
  if (dynamic_cast<const std::bad_alloc*>(&error) != nullptr)
    return "out of host memory (the CPU reference keeps several copies of the input)";
  return error.what();
}

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int major = 0, minor = 0;
  int sm_count = 0;
  std::size_t l2_bytes = 0;
  std::size_t total_bytes = 0;
  std::size_t free_bytes = 0;
  int sm_clock_khz = 0;
  int memory_clock_khz = 0;
  int memory_bus_bits = 0;

  // Datasheet bandwidth: memory clock x bus width x 2 (double data rate). Measured copies
  // reach 80-95% of it; the measured copy, not this, is what the gallery compares against.
  double peak_bandwidth_gb_per_s() const { return 2.0 * memory_clock_khz * 1e3 * (memory_bus_bits / 8.0) / 1e9; }
};

inline double gib(double bytes) { return bytes / double(1ull << 30); }
inline double mib(double bytes) { return bytes / double(1ull << 20); }

// Why there is no usable device, or an empty string when there is one.
inline std::string no_device_reason() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    cudaGetLastError();
    return std::string("no CUDA device: cudaGetDeviceCount failed: ") + cudaGetErrorString(status) + " (" +
           cudaGetErrorName(status) + ")";
  }
  if (count == 0) return "no CUDA device: cudaGetDeviceCount found 0 devices";
  return "";
}

inline DeviceInfo require_device(int ordinal = 0) {
  if (const std::string reason = no_device_reason(); !reason.empty()) throw EnvironmentError(reason);
  DeviceInfo info;
  info.ordinal = ordinal;
  SG_CUDA(cudaSetDevice(ordinal));
  cudaDeviceProp properties{};
  SG_CUDA(cudaGetDeviceProperties(&properties, ordinal));
  info.name = properties.name;
  info.major = properties.major;
  info.minor = properties.minor;
  info.sm_count = properties.multiProcessorCount;
  info.l2_bytes = static_cast<std::size_t>(properties.l2CacheSize);
  SG_CUDA(cudaDeviceGetAttribute(&info.sm_clock_khz, cudaDevAttrClockRate, ordinal));
  SG_CUDA(cudaDeviceGetAttribute(&info.memory_clock_khz, cudaDevAttrMemoryClockRate, ordinal));
  SG_CUDA(cudaDeviceGetAttribute(&info.memory_bus_bits, cudaDevAttrGlobalMemoryBusWidth, ordinal));
  SG_CUDA(cudaMemGetInfo(&info.free_bytes, &info.total_bytes));
  return info;
}

inline std::string describe(const DeviceInfo& info) {
  char text[512];
  std::snprintf(text, sizeof text, "%s (sm_%d%d) | %d SMs @ %.0f MHz | L2 %.0f MiB | %.1f GiB (%.1f GiB free) | peak %.0f GB/s",
                info.name.c_str(), info.major, info.minor, info.sm_count, info.sm_clock_khz / 1e3, mib(info.l2_bytes),
                gib(info.total_bytes), gib(info.free_bytes), info.peak_bandwidth_gb_per_s());
  return text;
}

// Throws when `needed` bytes of device memory are not free, saying how much is needed.
inline void require_device_memory(double needed, const std::string& what) {
  std::size_t free_bytes = 0, total_bytes = 0;
  SG_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  // keep some headroom for the CUDA context, CUB's temporary storage and fragmentation
  const double usable = static_cast<double>(free_bytes) - 256.0 * (1 << 20);
  if (needed > usable) {
    char text[512];
    std::snprintf(text, sizeof text, "%s needs %.2f GiB of device memory, but only %.2f GiB of %.2f GiB are free", what.c_str(),
                  gib(needed), gib(static_cast<double>(free_bytes)), gib(static_cast<double>(total_bytes)));
    throw EnvironmentError(text);
  }
}

}  // namespace sg

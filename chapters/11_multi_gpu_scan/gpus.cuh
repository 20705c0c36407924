// Chapter 11 - the GPUs of one process, and an array spread over them.
//
//   ch11::Gpus gpus(2);                            devices 0 and 1, a stream and an NCCL
//                                                  communicator each (ncclCommInitAll)
//   ch11::Distributed<int> a(gpus, n);             shard g = elements [g n / G, (g + 1) n / G)
//   gpus.on_each([&](int g) { ... });              with GPU g current
//
// One process drives every GPU (ncclCommInitAll). With one process per GPU, each process
// would call ncclCommInitRank with a unique id that rank 0 creates (ncclGetUniqueId) and sends
// to the others (MPI_Bcast, across nodes too); everything else in this chapter stays the same,
// since every NCCL call below is already made per rank.
#pragma once

#include "common/check.cuh"
#include "common/device_buffer.cuh"
#include "common/device_info.cuh"

#include <cuda_runtime.h>
#include <nccl.h>

#include <cstddef>
#include <cstdlib>
#include <string>
#include <vector>

namespace ch11 {

inline void check_nccl(ncclResult_t result, const char* call, const char* file, int line) {
  if (result == ncclSuccess) return;
  throw sg::CudaError(cudaErrorUnknown, std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
                                            ncclGetErrorString(result));
}
#define SG_NCCL(call) ::ch11::check_nccl((call), #call, __FILE__, __LINE__)

// How many GPUs this process sees (0 when none).
inline int visible_gpus() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

class Gpus {
 public:
  explicit Gpus(int count) : count_(count) {
    const int visible = visible_gpus();
    if (count < 1 || count > visible)
      throw sg::EnvironmentError("--gpus " + std::to_string(count) + ": this machine has " + std::to_string(visible) + " CUDA device" +
                                 (visible == 1 ? "" : "s"));
    // NVLink multicast (NVLS) stays off: on shared machines a program that uses it can put the
    // host's GPUs out of service. Set before the communicators exist; a value already set wins.
    setenv("NCCL_NVLS_ENABLE", "0", 0);
    for (int g = 0; g < count; ++g) devices_.push_back(g);
    comms_.resize(count);
    SG_NCCL(ncclCommInitAll(comms_.data(), count, devices_.data()));
    for (int g = 0; g < count; ++g) {
      SG_CUDA(cudaSetDevice(devices_[g]));
      cudaStream_t stream = nullptr;
      SG_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
      streams_.push_back(stream);
    }
    SG_CUDA(cudaSetDevice(devices_[0]));
  }
  ~Gpus() {
    for (int g = 0; g < count_; ++g) {
      cudaSetDevice(devices_[g]);
      cudaStreamSynchronize(streams_[g]);
      cudaStreamDestroy(streams_[g]);
      ncclCommDestroy(comms_[g]);
    }
    cudaSetDevice(devices_.empty() ? 0 : devices_[0]);
  }
  Gpus(const Gpus&) = delete;
  Gpus& operator=(const Gpus&) = delete;

  int count() const { return count_; }
  int device(int g) const { return devices_[g]; }
  cudaStream_t stream(int g) const { return streams_[g]; }
  ncclComm_t comm(int g) const { return comms_[g]; }

  // f(g) for every GPU, with GPU g current; GPU 0 current afterwards.
  template <typename F>
  void on_each(F&& f) const {
    for (int g = 0; g < count_; ++g) {
      SG_CUDA(cudaSetDevice(devices_[g]));
      f(g);
    }
    SG_CUDA(cudaSetDevice(devices_[0]));
  }

  void synchronize() const {
    on_each([&](int g) { SG_CUDA(cudaStreamSynchronize(streams_[g])); });
  }

 private:
  int count_;
  std::vector<int> devices_;
  std::vector<ncclComm_t> comms_;
  std::vector<cudaStream_t> streams_;
};

// Shard g of n elements over G GPUs: [g n / G, (g + 1) n / G). Contiguous, sizes differ by at
// most one.
struct Range {
  std::size_t begin = 0, count = 0;
};
inline Range shard_of(std::size_t n, int gpus, int g) {
  const auto at = [&](int k) {
    return static_cast<std::size_t>((static_cast<unsigned __int128>(n) * static_cast<unsigned>(k)) / static_cast<unsigned>(gpus));
  };
  return {at(g), at(g + 1) - at(g)};
}

// One array of n elements spread over the GPUs: each GPU holds its shard (in and out).
template <typename T>
struct Distributed {
  Distributed(const Gpus& gpus, std::size_t n) : n(n) {
    gpus.on_each([&](int g) {
      ranges.push_back(shard_of(n, gpus.count(), g));
      in.emplace_back(ranges.back().count);
      out.emplace_back(std::max<std::size_t>(ranges.back().count, 1));
    });
  }
  std::size_t n;
  std::vector<Range> ranges;
  std::vector<sg::DeviceBuffer<T>> in, out;
};

}  // namespace ch11

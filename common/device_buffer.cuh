// common/device_buffer.cuh - typed device memory that frees itself, and the scratch arena.
//
//   sg::DeviceBuffer<int> in(n);          // n elements, not bytes
//   in.upload(host_vector);
//   sg::poison(out);                       // fill with a pattern no scan produces
//   std::vector<int> back = out.download();
//   sg::HostBuffer<int> staging(n);        // page-locked host memory, reused
//   out.download_to(staging.data(), n);
//
// Launchers that need temporary storage (block sums, a ping-pong buffer) take it from
// sg::scratch_bytes(): one region per GPU that only grows. The warm-up run grows
// it, so nothing is allocated inside a timed loop. A launcher asks once per launch for
// everything it needs and carves the region itself; a second call may move the region.
#pragma once

#include "common/check.cuh"
#include "common/inputs.hpp"

#include <cstddef>
#include <map>
#include <utility>
#include <vector>

namespace sg {

template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count_ > 0) SG_CUDA(cudaMalloc(reinterpret_cast<void**>(&data_), bytes()));
  }
  ~DeviceBuffer() {
    if (data_ != nullptr) cudaFree(data_);  // never throw from a destructor
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept { swap(other); }
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    DeviceBuffer(std::move(other)).swap(*this);
    return *this;
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  void upload(const std::vector<T>& host) {
    if (host.size() != count_) throw std::invalid_argument("DeviceBuffer::upload: size mismatch");
    if (count_ > 0) SG_CUDA(cudaMemcpy(data_, host.data(), bytes(), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const { return download(count_); }
  std::vector<T> download(std::size_t count) const {
    std::vector<T> host(count);
    download_to(host.data(), count);
    return host;
  }
  void download_to(T* host, std::size_t count) const {
    if (count > 0) SG_CUDA(cudaMemcpy(host, data_, count * sizeof(T), cudaMemcpyDeviceToHost));
  }

 private:
  void swap(DeviceBuffer& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
  }
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

// Host memory for downloads that repeat: a benchmark validates every variant's output, twice, at
// every size, and at 2^30 elements a fresh std::vector per download costs more than the GPU's
// work (the pages are zeroed, then the copy is staged through the driver's own page-locked
// buffer). Page-locked memory is copied into directly, at the full speed of the link. If the
// system cannot lock that much, ordinary memory does the same job, more slowly.
template <typename T>
class HostBuffer {
 public:
  explicit HostBuffer(std::size_t count) : count_(count) {
    if (count_ == 0) return;
    if (cudaMallocHost(reinterpret_cast<void**>(&locked_), count_ * sizeof(T)) != cudaSuccess) {
      (void)cudaGetLastError();  // not sticky: clear it and fall back
      locked_ = nullptr;
      pageable_.resize(count_);
    }
  }
  ~HostBuffer() {
    if (locked_ != nullptr) cudaFreeHost(locked_);
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;

  T* data() { return locked_ != nullptr ? locked_ : pageable_.data(); }
  std::size_t size() const { return count_; }

 private:
  std::size_t count_ = 0;
  T* locked_ = nullptr;
  std::vector<T> pageable_;
};

// Fills a buffer with the poison pattern of its element type (see inputs.hpp): any element
// a kernel forgets to write keeps it, and validation reports it as "never written".
template <typename T>
void poison(DeviceBuffer<T>& buffer, cudaStream_t stream = nullptr) {
  if (buffer.size() > 0) SG_CUDA(cudaMemsetAsync(buffer.data(), poison_byte<T>(), buffer.bytes(), stream));
}

// The scratch arena described above. Growing it frees the old region, which waits for
// the device to go idle, so it must not happen while a kernel still uses the old one:
// launchers call it before their first launch.
inline int current_device() {
  int device = 0;
  SG_CUDA(cudaGetDevice(&device));
  return device;
}

// One region per device (chapter 11 runs one process over several GPUs; a kernel may only use
// its own GPU's scratch).
inline void* scratch_bytes(std::size_t bytes) {
  static std::map<int, DeviceBuffer<unsigned char>> regions;
  DeviceBuffer<unsigned char>& region = regions[current_device()];
  if (bytes > region.size()) {
    region = DeviceBuffer<unsigned char>();  // free first, so old + new need not both fit
    region = DeviceBuffer<unsigned char>(bytes);
  }
  return region.data();
}

}  // namespace sg

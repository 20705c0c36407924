// common/check.cuh - turn every CUDA failure into an error that names the call.
//
//   SG_CUDA(cudaMalloc(&p, bytes));   // "cudaMalloc(&p, bytes) failed at foo.cu:12: out of memory"
//   kernel<<<grid, block, 0, stream>>>(...);
//   SG_CHECK_LAUNCH();                 // catches bad launch configurations right away
//
// Errors are thrown as sg::CudaError; the chapter programs catch them in main(), print
// the message and exit with a non-zero code. Asynchronous faults inside a kernel surface
// at the next synchronising call, which is then the call named in the message; set
// SG_SYNC_LAUNCHES=1 to synchronise after every launch and pin them to the kernel.
#pragma once

#include <cuda_runtime.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace sg {

class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& message) : std::runtime_error(message), code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

inline void check_cuda(cudaError_t code, const char* call, const char* file, int line) {
  if (code == cudaSuccess) return;
  cudaGetLastError();  // clear a sticky "last error" so later, unrelated checks stay clean
  throw CudaError(code, std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
                            cudaGetErrorString(code) + " (" + cudaGetErrorName(code) + ")");
}

inline bool sync_after_every_launch() {
  static const bool enabled = [] {
    const char* value = std::getenv("SG_SYNC_LAUNCHES");
    return value != nullptr && value[0] == '1';
  }();
  return enabled;
}

inline void check_launch(const char* file, int line) {
  check_cuda(cudaGetLastError(), "kernel launch", file, line);
  if (sync_after_every_launch()) check_cuda(cudaDeviceSynchronize(), "kernel execution", file, line);
}

}  // namespace sg

#define SG_CUDA(call) ::sg::check_cuda((call), #call, __FILE__, __LINE__)
#define SG_CHECK_LAUNCH() ::sg::check_launch(__FILE__, __LINE__)

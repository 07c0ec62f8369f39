// Checking every CUDA call and every kernel launch.
//
// A failed call throws common::CudaError whose message carries the call, file:line and
// CUDA's own error string, so a chapter program prints one clear line instead of carrying
// on with garbage. Launches are asynchronous: CUDA_CHECK_LAUNCH() catches bad launch
// configurations at once; errors inside the kernel surface at the next synchronizing call,
// which is checked too.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace common {

class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& message) : std::runtime_error(message), code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

[[noreturn]] void throw_cuda_error(cudaError_t code, const char* what, const char* file, int line);

inline void check_cuda(cudaError_t code, const char* what, const char* file, int line) {
  if (code != cudaSuccess) throw_cuda_error(code, what, file, line);
}

}  // namespace common

#define CUDA_CHECK(call) ::common::check_cuda((call), #call, __FILE__, __LINE__)

// After a <<<...>>> launch: reports an invalid configuration (too many threads, too much
// shared memory, no kernel image for this GPU) at the line of the launch.
#define CUDA_CHECK_LAUNCH() ::common::check_cuda(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)

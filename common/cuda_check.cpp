#include "cuda_check.hpp"

#include <fmt/format.h>

namespace common {

void throw_cuda_error(cudaError_t code, const char* what, const char* file, int line) {
  throw CudaError(code, fmt::format("{}:{}: {} failed: {} ({})", file, line, what, cudaGetErrorString(code),
                                    cudaGetErrorName(code)));
}

}  // namespace common

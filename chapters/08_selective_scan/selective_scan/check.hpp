// check.hpp: every CUDA call and launch of the library is checked; a failure throws
// selective_scan::Error naming the call, the file and the line.
#pragma once

#include "selective_scan.hpp"

#include <cuda_runtime_api.h>

#include <string>

namespace selective_scan::detail {

inline void check(cudaError_t status, const char* what, const char* file, int line) {
  if (status != cudaSuccess)
    throw Error(std::string("selective_scan: ") + what + " failed at " + file + ":" + std::to_string(line) + ": " +
                cudaGetErrorString(status));
}

}  // namespace selective_scan::detail

#define SELECTIVE_SCAN_CHECK(call) ::selective_scan::detail::check((call), #call, __FILE__, __LINE__)
#define SELECTIVE_SCAN_CHECK_LAUNCH() \
  ::selective_scan::detail::check(cudaPeekAtLastError(), "kernel launch", __FILE__, __LINE__)

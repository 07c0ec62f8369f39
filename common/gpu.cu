#include "gpu.hpp"

#include "cuda_check.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>

namespace common {
namespace {

// Exists only to ask the runtime whether this binary carries code for the device.
__global__ void probe_kernel() {}

std::string gib(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(bytes) / (1u << 30));
  return text;
}

GpuStatus probe() {
  GpuStatus status;
  int count = 0;
  if (cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) {
    status.why_not = std::string(cudaGetErrorString(e)) + " (" + cudaGetErrorName(e) + ")";
    cudaGetLastError();  // reset the last-error state so later checks start clean
    return status;
  }
  if (count == 0) {
    status.why_not = "no CUDA device is visible";
    return status;
  }
  cudaDeviceProp prop{};
  if (cudaError_t e = cudaGetDeviceProperties(&prop, 0); e != cudaSuccess) {
    status.why_not = std::string("cannot read device 0's properties: ") + cudaGetErrorString(e);
    return status;
  }
  cudaFuncAttributes attributes{};
  if (cudaError_t e = cudaFuncGetAttributes(&attributes, probe_kernel); e != cudaSuccess) {
    status.why_not = std::string(prop.name) + " is sm_" + std::to_string(prop.major) +
                     std::to_string(prop.minor) + ", and this build has no code for it (" +
                     cudaGetErrorString(e) + "); rebuild with -DCMAKE_CUDA_ARCHITECTURES=" +
                     std::to_string(prop.major) + std::to_string(prop.minor);
    cudaGetLastError();
    return status;
  }
  // CUDA 13's cudaDeviceProp has no clock: it is an attribute.
  int clock_khz = 0;
  if (cudaError_t e = cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0); e != cudaSuccess) {
    status.why_not = std::string("cannot read device 0's clock: ") + cudaGetErrorString(e);
    return status;
  }
  status.usable = true;
  status.device = {prop.name,
                   prop.major,
                   prop.minor,
                   prop.multiProcessorCount,
                   prop.totalGlobalMem,
                   static_cast<std::size_t>(prop.l2CacheSize),
                   clock_khz};
  return status;
}

}  // namespace

const GpuStatus& gpu_status() {
  static const GpuStatus status = probe();
  return status;
}

void require_device_memory(std::size_t bytes, const std::string& what) {
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (bytes > free_bytes) {
    throw std::runtime_error(what + " needs " + gib(bytes) + " of GPU memory, but only " +
                             gib(free_bytes) + " of " + gib(total_bytes) + " is free");
  }
}

}  // namespace common

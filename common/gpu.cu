#include "gpu.hpp"

#include "common_options.hpp"
#include "cuda_check.hpp"
#include "memory.hpp"

#include <filesystem>
#include <string>

namespace common {
namespace {

// Exists only to ask the runtime whether this binary carries code for the device.
__global__ void probe_kernel() {}

std::string cuda_version(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

// cudaGetDeviceCount's error in words that say what is missing. The runtime reports
// cudaErrorInsufficientDriver both for a driver too old and for no driver at all, so ask
// which: cudaDriverGetVersion gives 0 when no driver library (libcuda.so.1) is found.
std::string why_no_device(cudaError_t e) {
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  switch (e) {
    case cudaErrorInsufficientDriver:
      if (driver == 0) return "no NVIDIA driver is installed (libcuda.so.1 not found)";
      return "the NVIDIA driver is too old: it supports CUDA " + cuda_version(driver) + ", this build needs " +
             cuda_version(runtime);
    case cudaErrorNoDevice:
      return std::filesystem::exists("/proc/driver/nvidia/version")
                 ? "the NVIDIA driver sees no GPU"
                 : "the NVIDIA driver sees no GPU (its kernel module is not loaded)";
    case cudaErrorStubLibrary: return "libcuda.so.1 is the CUDA toolkit's stub, not a driver";
    default:
      return std::string("no usable CUDA driver or GPU: ") + cudaGetErrorString(e) + " (" + cudaGetErrorName(e) + ")";
  }
}

GpuStatus probe() {
  GpuStatus status;
  int count = 0;
  if (cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) {
    status.why_not = why_no_device(e);
    cudaGetLastError();  // reset the last-error state so later checks start clean
    return status;
  }
  if (count == 0) {
    status.why_not = "the NVIDIA driver sees no GPU (check CUDA_VISIBLE_DEVICES)";
    return status;
  }
  cudaDeviceProp prop{};
  if (cudaError_t e = cudaGetDeviceProperties(&prop, 0); e != cudaSuccess) {
    status.why_not = std::string("cannot read device 0's properties: ") + cudaGetErrorString(e);
    return status;
  }
  cudaFuncAttributes attributes{};
  if (cudaError_t e = cudaFuncGetAttributes(&attributes, probe_kernel); e != cudaSuccess) {
    status.why_not = std::string(prop.name) + " is sm_" + std::to_string(prop.major) + std::to_string(prop.minor) +
                     ", and this build has no code for it (" + cudaGetErrorString(e) +
                     "); rebuild with -DCMAKE_CUDA_ARCHITECTURES=" + std::to_string(prop.major) +
                     std::to_string(prop.minor);
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
    throw OptionError(what + " needs " + format_bytes(static_cast<double>(bytes)) + " of GPU memory, but only " +
                      format_bytes(static_cast<double>(free_bytes)) + " of " +
                      format_bytes(static_cast<double>(total_bytes)) + " is free: make them smaller");
  }
}

}  // namespace common

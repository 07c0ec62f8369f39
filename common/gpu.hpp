// Is there a GPU this build can run on? Asked once, answered without crashing.
//
// With no driver, or one too old, cudaGetDeviceCount returns cudaErrorInsufficientDriver;
// with a GPU of an architecture this build has no code for, every launch would fail with "no
// kernel image". Each becomes a reason string, in words that say which case it is, that the
// programs print and the GPU tests skip on.
#pragma once

#include <cstddef>
#include <string>

namespace common {

struct DeviceInfo {
  std::string name;
  int compute_major = 0;
  int compute_minor = 0;
  int multiprocessors = 0;
  std::size_t global_memory_bytes = 0;
  std::size_t l2_cache_bytes = 0;
  int clock_khz = 0;  // the multiprocessors' peak clock (cudaDevAttrClockRate)
};

struct GpuStatus {
  bool usable = false;
  std::string why_not;  // empty when usable
  DeviceInfo device;    // filled when usable
};

// Probes device 0 once and caches the answer. Never throws.
const GpuStatus& gpu_status();

inline bool gpu_available(std::string* why_not = nullptr) {
  const GpuStatus& s = gpu_status();
  if (!s.usable && why_not) *why_not = s.why_not;
  return s.usable;
}

// Throws OptionError (exit code 2 from run_chapter) when `bytes` does not fit in the GPU's free
// memory, naming `what` (the options whose product sets the size, e.g. "--batch × --length")
// and both sizes.
void require_device_memory(std::size_t bytes, const std::string& what);

}  // namespace common

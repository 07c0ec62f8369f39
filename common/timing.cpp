#include "timing.hpp"

#include "gpu.hpp"

#include <algorithm>

namespace common {

GpuTimer::GpuTimer(TimingOptions options) : options_(options) {
  if (options_.flush_l2) {
    // Twice the L2 size, so that writing it evicts everything a kernel left in the cache.
    const std::size_t l2 = std::max<std::size_t>(gpu_status().device.l2_cache_bytes, 1u << 20);
    l2_scratch_ = DeviceBuffer<char>(2 * l2);
  }
  CUDA_CHECK(cudaEventCreate(&start_));
  CUDA_CHECK(cudaEventCreate(&stop_));
}

GpuTimer::~GpuTimer() {
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
}

void GpuTimer::flush_l2() {
  if (l2_scratch_.size() > 0) CUDA_CHECK(cudaMemsetAsync(l2_scratch_.data(), 0, l2_scratch_.bytes()));
}

TimingStats time_device_copy(std::size_t bytes, GpuTimer& timer) {
  DeviceBuffer<char> source(bytes), destination(bytes);
  CUDA_CHECK(cudaMemset(source.data(), 1, bytes));
  return timer.time(
      [&] { CUDA_CHECK(cudaMemcpyAsync(destination.data(), source.data(), bytes, cudaMemcpyDeviceToDevice)); });
}

double measure_copy_bandwidth(std::size_t bytes, TimingOptions options) {
  GpuTimer timer(options);
  return gigabytes_per_second(2.0 * static_cast<double>(bytes), time_device_copy(bytes, timer).median_ms);
}

}  // namespace common

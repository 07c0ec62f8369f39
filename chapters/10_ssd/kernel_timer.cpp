#include "kernel_timer.hpp"

#include "cuda_check.hpp"
#include "gpu.hpp"

#include <algorithm>

namespace ch10 {

KernelTimer::KernelTimer(common::TimingOptions options) : options_(options) {
  // Twice the L2, as common::GpuTimer flushes it: writing it evicts whatever a call left there.
  if (options_.flush_l2)
    l2_scratch_ =
        common::DeviceBuffer<char>(2 * std::max<std::size_t>(common::gpu_status().device.l2_cache_bytes, 1u << 20));
}

void KernelTimer::flush_l2() {
  if (l2_scratch_.size() > 0) CUDA_CHECK(cudaMemsetAsync(l2_scratch_.data(), 0, l2_scratch_.bytes()));
}

}  // namespace ch10

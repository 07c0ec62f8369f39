// The spinning block of busy_gpu.hpp: it reads the GPU's nanosecond timer until the time is up.
#include "busy_gpu.hpp"

#include "cuda_check.hpp"

#include <cstdint>

namespace ch08::grid {
namespace {

__global__ void spin(std::uint64_t nanoseconds) {
  std::uint64_t start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  while (now - start < nanoseconds);
}

}  // namespace

void keep_gpu_busy(double microseconds) {
  spin<<<1, 1>>>(std::uint64_t(microseconds * 1000));
  CUDA_CHECK_LAUNCH();
}

}  // namespace ch08::grid

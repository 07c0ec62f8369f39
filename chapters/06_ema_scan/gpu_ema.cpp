#include "gpu_ema.hpp"

#include "gpu.hpp"

namespace ema {

namespace {
std::size_t device_bytes(const Problem& p) {
  const std::size_t tiles = tiles_per_sequence(p.length) * p.batch;
  // CUB's scratch is small (a few words per tile of its own); count it generously.
  return 12 * p.size() + tiles * (sizeof(unsigned long long) + sizeof(float2)) + 64 * tiles + (1 << 20);
}
}  // namespace

GpuEma::GpuEma(const Problem& problem)
    : batch_((common::require_device_memory(device_bytes(problem), "the recurrence's batch × L"), problem.batch)),
      length_(problem.length),
      a_(std::span<const float>(problem.a)),
      b_(std::span<const float>(problem.b)),
      h_(problem.size()),
      tile_status_(tiles_per_sequence(problem.length) * problem.batch + 1),
      tile_aggregate_(tiles_per_sequence(problem.length) * problem.batch),
      cub_temp_(problem.length > 0 ? cub_scan_temp_bytes(problem.length) : 0) {}

void GpuEma::run(Kernel kernel, cudaStream_t stream) {
  if (size() == 0) return;
  if (kernel == Kernel::cub_device_scan)
    return cub_pair_scan(a_.data(), b_.data(), h_.data(), batch_, length_, cub_temp_.data(), cub_temp_.bytes(), stream);
  run_hand_written(kernel, a_.data(), b_.data(), h_.data(), batch_, length_,
                   {tile_status_.data(), tile_aggregate_.data()}, stream);
}

}  // namespace ema

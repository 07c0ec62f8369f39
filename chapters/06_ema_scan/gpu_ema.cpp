#include "gpu_ema.hpp"

#include "gpu.hpp"

namespace ema {

namespace {
std::size_t device_bytes(const Problem& p) {
  const std::size_t tiles = tiles_per_sequence(p.length) * p.batch;
  // a, b, h, and version 7's zipped pairs; the statuses of versions 4 and 5. CUB's scratch is
  // small (a few words per tile of its own); count it generously.
  return (12 + sizeof(float2)) * p.size() + tiles * (3 * sizeof(unsigned long long) + sizeof(float2)) + 64 * tiles +
         (1 << 20);
}

std::vector<float2> zip(const Problem& p) {
  std::vector<float2> ab(p.size());
  for (std::size_t i = 0; i < ab.size(); ++i) ab[i] = make_float2(p.a[i], p.b[i]);
  return ab;
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
      window_status_(2 * tiles_per_sequence(problem.length) * problem.batch + 1),
      ab_(std::span<const float2>(zip(problem))),
      cub_temp_(problem.length > 0 ? cub_scan_temp_bytes(problem.length) : 0) {}

void GpuEma::run(Kernel kernel, cudaStream_t stream) {
  if (size() == 0) return;
  if (kernel == Kernel::cub_device_scan)
    return cub_pair_scan(a_.data(), b_.data(), h_.data(), batch_, length_, cub_temp_.data(), cub_temp_.bytes(), stream);
  if (kernel == Kernel::cub_device_scan_float2)
    return cub_float2_scan(ab_.data(), h_.data(), batch_, length_, cub_temp_.data(), cub_temp_.bytes(), stream);
  run_hand_written(kernel, a_.data(), b_.data(), h_.data(), batch_, length_, scratch(), stream);
}

void GpuEma::run_window(TileShape shape, cudaStream_t stream) {
  run_look_back_window(shape, a_.data(), b_.data(), h_.data(), batch_, length_, scratch(), stream);
}

}  // namespace ema

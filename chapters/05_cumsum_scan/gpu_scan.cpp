#include "gpu_scan.hpp"

#include "gpu.hpp"
#include "scan_libraries.hpp"

#include <stdexcept>

namespace scan {

ScanWorkspace::ScanWorkspace(std::size_t max_n)
    : max_n_(max_n),
      tile_sums_(tile_count(max_n)),
      tile_prefix_(tile_count(max_n)),
      tile_status_(tile_count(max_n) + 1),
      cub_temp_(max_n > 0 ? cub_scan_temp_bytes(max_n) : 0) {}

std::size_t ScanWorkspace::device_bytes(std::size_t max_n) {
  const std::size_t tiles = tile_count(max_n);
  // CUB's scratch is about 16 bytes per tile of its own; count it generously.
  return tiles * (2 * sizeof(float) + sizeof(unsigned long long)) + 64 * tiles + (1 << 20);
}

void ScanWorkspace::run(Kernel kernel, const float* in, float* out, std::size_t n, cudaStream_t stream) {
  if (n > max_n_) throw std::invalid_argument("ScanWorkspace::run: n is larger than the workspace was made for");
  if (n == 0) return;
  switch (kernel) {
    case Kernel::cub_device_scan:
      // CUB's scratch need grows with n; the one for max_n is enough for every smaller n.
      return cub_inclusive_sum(in, out, n, cub_temp_.data(), cub_temp_.bytes(), stream);
    case Kernel::thrust_scan: return thrust_inclusive_scan(in, out, n, stream);
    case Kernel::thrust_scan_cached: return thrust_inclusive_scan_cached(in, out, n, thrust_cache_, stream);
    default:
      return run_hand_written(kernel, in, out, n, {tile_sums_.data(), tile_prefix_.data(), tile_status_.data()},
                              stream);
  }
}

GpuScan::GpuScan(std::span<const float> x)
    : n_((common::require_device_memory(2 * x.size_bytes() + ScanWorkspace::device_bytes(x.size()), "the scan's N"),
          x.size())),
      in_(x),
      out_(x.size()),
      workspace_(x.size()) {}

void GpuScan::poison_output() { out_.poison(); }

}  // namespace scan

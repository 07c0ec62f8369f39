// One scan problem on the GPU: the input uploaded once, an output that can be poisoned before
// each run, and the scratch of every version allocated once, up front -- so that no timed run
// allocates anything (except version 9, whose allocation is the point of it).
#pragma once

#include "caching_allocator.hpp"
#include "device_buffer.hpp"
#include "scan_kernels.hpp"

#include <cstddef>
#include <span>
#include <vector>

namespace scan {

// The scratch of every version, for up to max_n elements.
class ScanWorkspace {
 public:
  explicit ScanWorkspace(std::size_t max_n);
  // Runs version `kernel` on n ≤ max_n elements at device pointers in and out.
  void run(Kernel kernel, const float* in, float* out, std::size_t n, cudaStream_t stream = nullptr);
  static std::size_t device_bytes(std::size_t max_n);

 private:
  std::size_t max_n_;
  common::DeviceBuffer<float> tile_sums_, tile_prefix_;
  common::DeviceBuffer<unsigned long long> tile_status_;
  common::DeviceBuffer<char> cub_temp_;
  CachingAllocator thrust_cache_;
};

class GpuScan {
 public:
  // Throws a one-line error, before allocating, when the problem does not fit in GPU memory.
  explicit GpuScan(std::span<const float> x);

  void poison_output();  // every output element becomes NaN
  void run(Kernel kernel, cudaStream_t stream = nullptr) {
    workspace_.run(kernel, in_.data(), out_.data(), n_, stream);
  }
  std::vector<float> output() const { return out_.download(); }
  std::size_t size() const { return n_; }
  // Bytes a scan must move at least: every x read once and every y written once.
  std::size_t bytes_moved() const { return 2 * n_ * sizeof(float); }

 private:
  std::size_t n_;
  common::DeviceBuffer<float> in_, out_;
  ScanWorkspace workspace_;
};

}  // namespace scan

// One recurrence problem on the GPU: a and b uploaded once, h poisoned before each run, and
// the scratch of every version allocated once, up front, so that no timed run allocates.
#pragma once

#include "device_buffer.hpp"
#include "ema_kernels.hpp"
#include "reference.hpp"

#include <cstddef>
#include <vector>

namespace ema {

class GpuEma {
 public:
  // Throws a one-line error, before allocating, when the problem does not fit in GPU memory.
  explicit GpuEma(const Problem& problem);

  void poison_output() { h_.poison(); }
  void run(Kernel kernel, cudaStream_t stream = nullptr);
  // Version 5 with a tile shape of kWindowTileShapes (the tile sweep).
  void run_window(TileShape shape, cudaStream_t stream = nullptr);
  std::vector<float> output() const { return h_.download(); }
  std::size_t size() const { return batch_ * length_; }
  // Bytes a scan must move at least: a and b read once, h written once.
  std::size_t bytes_moved() const { return 12 * size(); }

 private:
  DeviceScratch scratch() { return {tile_status_.data(), tile_aggregate_.data(), window_status_.data()}; }

  std::size_t batch_, length_;
  common::DeviceBuffer<float> a_, b_, h_;
  common::DeviceBuffer<unsigned long long> tile_status_;
  common::DeviceBuffer<float2> tile_aggregate_;
  common::DeviceBuffer<unsigned long long> window_status_;
  common::DeviceBuffer<float2> ab_;  // version 7's input: (a[i], b[i]), zipped once, untimed
  common::DeviceBuffer<char> cub_temp_;
};

}  // namespace ema

// One bank of S4D channels on the GPU: W and z uploaded once (as fp32), the kernel K̄ as the
// output that can be poisoned before each run and brought back for checking.
#pragma once

#include "device_buffer.hpp"
#include "s4d.hpp"
#include "vandermonde_kernels.hpp"

#include <cstddef>
#include <vector>

namespace s4d {

class GpuVandermonde {
 public:
  // Throws a one-line error, before allocating, when the bank does not fit in GPU memory.
  explicit GpuVandermonde(const Bank& bank);

  void poison_output();  // K becomes NaN
  void run(Kernel kernel, cudaStream_t stream = nullptr);
  std::vector<float> K() const { return K_.download(); }
  // The first `count` channels of K.
  std::vector<float> K_prefix(int count) const;

  // Bytes a run must move at least: W and z read, K written.
  std::size_t bytes_moved() const { return W_.bytes() + z_.bytes() + K_.bytes(); }

 private:
  DeviceBank device_bank();
  int channels_, modes_, length_;
  float scale_;
  common::DeviceBuffer<float2> W_, z_;
  common::DeviceBuffer<float> K_;
};

}  // namespace s4d

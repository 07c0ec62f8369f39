// One batched causal convolution problem on the GPU: t and x uploaded once (as fp32), an
// output that can be poisoned before each run, the FFT plans made up front, and the result
// brought back for checking.
#pragma once

#include "conv_kernels.hpp"
#include "device_buffer.hpp"
#include "fft_conv.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace conv {

class GpuConvolution {
 public:
  // t: channels × n, x: batch × channels × n (row-major, fp64 on the host). Throws a one-line
  // error, before allocating, when the problem does not fit in GPU memory.
  GpuConvolution(const std::vector<double>& t, const std::vector<double>& x, int batch, int channels, int n);

  void poison_output();  // o becomes NaN
  void run(Kernel kernel, cudaStream_t stream = nullptr);
  std::vector<float> output() const { return o_.download(); }

  int fft_length() const { return fft_.length(); }
  // Device memory a problem of these sizes takes: t, x, the output and the FFT's buffers.
  static std::size_t device_bytes(int batch, int channels, int n);

 private:
  DeviceProblem problem();
  int batch_, channels_, n_;
  common::DeviceBuffer<float> t_, x_, o_;
  FftConvolution fft_;
};

}  // namespace conv

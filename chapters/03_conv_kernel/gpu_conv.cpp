#include "gpu_conv.hpp"

#include "gpu.hpp"

#include <stdexcept>

namespace conv {
namespace {

std::vector<float> to_float(const std::vector<double>& v) { return {v.begin(), v.end()}; }

std::size_t checked_device_bytes(const std::vector<double>& t, const std::vector<double>& x, int batch, int channels,
                                 int n) {
  if (batch < 1 || channels < 1 || n < 1) throw std::invalid_argument("GpuConvolution: sizes must be at least 1");
  if (t.size() != std::size_t(channels) * n || x.size() != std::size_t(batch) * channels * n)
    throw std::invalid_argument("GpuConvolution: t must be channels × n and x batch × channels × n");
  const std::size_t bytes = GpuConvolution::device_bytes(batch, channels, n);
  common::require_device_memory(bytes, "--batch × --channels × --length");
  return bytes;
}

}  // namespace

std::size_t GpuConvolution::device_bytes(int batch, int channels, int n) {
  const std::size_t kernels = std::size_t(channels) * n, elements = std::size_t(batch) * kernels;
  return sizeof(float) * (kernels + 2 * elements) + FftConvolution::device_bytes(batch, channels, n);
}

GpuConvolution::GpuConvolution(const std::vector<double>& t, const std::vector<double>& x, int batch, int channels,
                               int n)
    : batch_((checked_device_bytes(t, x, batch, channels, n), batch)),
      channels_(channels),
      n_(n),
      t_(std::span<const float>(to_float(t))),
      x_(std::span<const float>(to_float(x))),
      o_(x.size()),
      fft_(batch, channels, n) {}

void GpuConvolution::poison_output() { o_.poison(); }

DeviceProblem GpuConvolution::problem() { return {batch_, channels_, n_, t_.data(), x_.data(), o_.data()}; }

void GpuConvolution::run(Kernel kernel, cudaStream_t stream) {
  if (kernel == Kernel::fft_convolution) return fft_.run(t_.data(), x_.data(), o_.data(), stream);
  run_direct(kernel, problem(), stream);
}

}  // namespace conv

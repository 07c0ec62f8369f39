#include "gpu_vandermonde.hpp"

#include "gpu.hpp"

#include <algorithm>
#include <numbers>

namespace s4d {
namespace {

std::vector<float2> to_float2(const std::vector<complex>& v) {
  std::vector<float2> out(v.size());
  std::transform(v.begin(), v.end(), out.begin(),
                 [](complex c) { return make_float2(static_cast<float>(c.real()), static_cast<float>(c.imag())); });
  return out;
}

// The exponents with their imaginary parts in half-turns, Im z / π (complex_float.cuh).
std::vector<float2> to_halfturns(const std::vector<complex>& z) {
  std::vector<float2> out(z.size());
  std::transform(z.begin(), z.end(), out.begin(), [](complex c) {
    return make_float2(static_cast<float>(c.real()), static_cast<float>(c.imag() / std::numbers::pi));
  });
  return out;
}

}  // namespace

GpuVandermonde::GpuVandermonde(const Bank& bank)
    : channels_(bank.channels), modes_(bank.modes), length_(bank.length), scale_(static_cast<float>(bank.scale)) {
  const std::size_t coefficients = std::size_t(channels_) * modes_;
  common::require_device_memory(2 * coefficients * sizeof(float2) + std::size_t(channels_) * length_ * sizeof(float),
                                "--channels × the kernel length L");
  const auto W = to_float2(bank.W), z = to_halfturns(bank.z);
  W_ = common::DeviceBuffer<float2>(std::span<const float2>(W));
  z_ = common::DeviceBuffer<float2>(std::span<const float2>(z));
  K_ = common::DeviceBuffer<float>(std::size_t(channels_) * length_);
}

void GpuVandermonde::poison_output() { K_.poison(); }

DeviceBank GpuVandermonde::device_bank() {
  return {channels_, modes_, length_, scale_, W_.data(), z_.data(), K_.data()};
}

void GpuVandermonde::run(Kernel kernel, cudaStream_t stream) { run_gpu(kernel, device_bank(), stream); }

std::vector<float> GpuVandermonde::K_prefix(int count) const {
  std::vector<float> K = K_.download();
  K.resize(std::size_t(std::min(count, channels_)) * length_);
  return K;
}

}  // namespace s4d

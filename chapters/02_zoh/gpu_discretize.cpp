#include "gpu_discretize.hpp"

#include "gpu.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>

namespace zoh {
namespace {

std::vector<float> download_prefix(const common::DeviceBuffer<float>& buffer, std::size_t count) {
  std::vector<float> host(std::min(count, buffer.size()));
  if (!host.empty())
    CUDA_CHECK(cudaMemcpy(host.data(), buffer.data(), host.size() * sizeof(float), cudaMemcpyDeviceToHost));
  return host;
}

}  // namespace

std::size_t GpuDiscretization::device_bytes(const SelectiveShape& s) {
  // The largest shapes the options allow reach 2⁶² elements: say "too much" rather than wrap.
  if (s.count() > SIZE_MAX / 16) return SIZE_MAX;
  return sizeof(float) * (2 * s.count() + s.tokens() * (s.channels + s.state) + 2 * std::size_t(s.channels) * s.state);
}

GpuDiscretization::GpuDiscretization(const SelectiveProblem& p) : shape_(p.shape) {
  common::require_device_memory(device_bytes(shape_), "--batch × --length × --channels × --state");
  // [snippet:fold_log2e]
  // Fold log2(e) into A once, in fp64, rounding to fp32 once: the kernels then compute
  // exp(Δa) as exp2f(Δ · a_log2e) and never multiply by log2(e) themselves.
  std::vector<float> A_log2e(p.A.size());
  std::transform(p.A.begin(), p.A.end(), A_log2e.begin(),
                 [](float a) { return static_cast<float>(double(a) * std::numbers::log2e); });
  // [/snippet:fold_log2e]
  delta_ = common::DeviceBuffer<float>(std::span<const float>(p.delta));
  A_ = common::DeviceBuffer<float>(std::span<const float>(p.A));
  A_log2e_ = common::DeviceBuffer<float>(std::span<const float>(A_log2e));
  B_ = common::DeviceBuffer<float>(std::span<const float>(p.B));
  Abar_ = common::DeviceBuffer<float>(shape_.count());
  Bbar_ = common::DeviceBuffer<float>(shape_.count());
}

void GpuDiscretization::poison_outputs() {
  Abar_.poison();
  Bbar_.poison();
}

void GpuDiscretization::run(Kernel kernel, Rule rule, cudaStream_t stream) {
  const DeviceProblem problem{shape_.batch,   shape_.length, shape_.channels, shape_.state,
                              shape_.count(), delta_.data(), A_.data(),       A_log2e_.data(),
                              B_.data(),      Abar_.data(),  Bbar_.data()};
  run_gpu(kernel, rule, problem, stream);
}

std::vector<float> GpuDiscretization::abar(std::size_t count) const { return download_prefix(Abar_, count); }
std::vector<float> GpuDiscretization::bbar(std::size_t count) const { return download_prefix(Bbar_, count); }

}  // namespace zoh

#include "gpu_rnn.hpp"

#include "gpu.hpp"

namespace rnn {
namespace {

std::vector<float> to_float(const std::vector<double>& v) { return {v.begin(), v.end()}; }

}  // namespace

std::size_t GpuRnn::device_bytes(int hidden, int batch, int length) {
  const std::size_t sequence_values = std::size_t(batch) * length;  // x and y
  const std::size_t state_values = std::size_t(batch) * hidden;     // h_final and 2 scratch states
  return sizeof(float) * (2 * sequence_values + 3 * state_values + std::size_t(hidden) * (hidden + 2));
}

GpuRnn::GpuRnn(const Weights& w, const Sequences& s) : hidden_(w.hidden), batch_(s.batch), length_(s.length) {
  common::require_device_memory(device_bytes(hidden_, batch_, length_), "--batch × --length");
  const auto W = to_float(w.W), u = to_float(w.u), c = to_float(w.c), x = to_float(s.x);
  W_ = common::DeviceBuffer<float>(std::span<const float>(W));
  u_ = common::DeviceBuffer<float>(std::span<const float>(u));
  c_ = common::DeviceBuffer<float>(std::span<const float>(c));
  x_ = common::DeviceBuffer<float>(std::span<const float>(x));
  y_ = common::DeviceBuffer<float>(x.size());
  h_final_ = common::DeviceBuffer<float>(std::size_t(batch_) * hidden_);
  h_scratch_ = common::DeviceBuffer<float>(2 * std::size_t(batch_) * hidden_);
}

void GpuRnn::poison_outputs() {
  y_.poison();
  h_final_.poison();
  h_scratch_.poison();
}

DeviceProblem GpuRnn::problem() {
  return {hidden_,   batch_,    length_,   W_.data(),       u_.data(),
          c_.data(), x_.data(), y_.data(), h_final_.data(), h_scratch_.data()};
}

void GpuRnn::run(Kernel kernel, Activation f, cudaStream_t stream) { run_gpu(kernel, f, problem(), stream); }

}  // namespace rnn

#include "gpu_reverse.hpp"

#include "gpu.hpp"

namespace rscan {

namespace {
bool reads_stored_h(Kernel kernel) { return kernel != Kernel::recompute_h; }
}  // namespace

GpuProblem::GpuProblem(Shape shape, std::span<const float> a, std::span<const float> b, std::span<const float> dy)
    : shape_(shape) {
  common::require_device_memory(7 * shape.size() * sizeof(float),
                                "the problem's arrays (a, b, dy, h, two gradients, checkpoints)");
  a_ = common::DeviceBuffer<float>(a);
  b_ = common::DeviceBuffer<float>(b);
  dy_ = common::DeviceBuffer<float>(dy);
  grad_a_ = common::DeviceBuffer<float>(shape.size());
  grad_b_ = common::DeviceBuffer<float>(shape.size());
}

DeviceProblem GpuProblem::view() {
  return {shape_.sequences, shape_.length,  a_.data(),      b_.data(),          dy_.data(),
          h_.data(),        grad_a_.data(), grad_b_.data(), checkpoints_.data()};
}

void GpuProblem::store_h() {
  if (h_.size() != shape_.size()) h_ = common::DeviceBuffer<float>(shape_.size());
  forward_store_h(view(), h_.data());
}

void GpuProblem::backward(Kernel kernel) {
  if (kernel == Kernel::recompute_h) {
    const std::size_t states = shape_.sequences * chunks_per_sequence(shape_.length);
    if (checkpoints_.size() != states) checkpoints_ = common::DeviceBuffer<float>(states);
  }
  run_backward(kernel, view());
}

void GpuProblem::gradients(Kernel kernel) {
  if (reads_stored_h(kernel)) {
    if (h_.size() != shape_.size()) h_ = common::DeviceBuffer<float>(shape_.size());
    h_.poison();  // a state the forward pass skips must show up as NaN
    store_h();
  }
  poison_gradients();
  backward(kernel);
  CUDA_CHECK(cudaDeviceSynchronize());
}

void GpuProblem::poison_gradients() {
  grad_a_.poison();
  grad_b_.poison();
  checkpoints_.poison();
}

// [snippet:memory_model]
std::size_t bytes_kept_for_h(Kernel kernel, Shape shape) {
  if (reads_stored_h(kernel)) return shape.size() * sizeof(float);
  return shape.sequences * chunks_per_sequence(shape.length) * sizeof(float);
}

std::size_t bytes_moved_backward(Kernel kernel, Shape shape) {
  const std::size_t n = shape.size() * sizeof(float);
  // Versions 1-3 read a, dy and h; version 4 reads a and b twice (once per pass) and dy.
  // Every version writes the two gradients; the checkpoints are a rounding error.
  return reads_stored_h(kernel) ? 5 * n : 7 * n;
}

std::size_t bytes_moved_per_step(Kernel kernel, Shape shape) {
  const std::size_t n = shape.size() * sizeof(float);
  // The forward pass reads a and b whichever way h is kept; storing h writes it too.
  const std::size_t forward = reads_stored_h(kernel) ? 3 * n : 2 * n;
  return forward + bytes_moved_backward(kernel, shape);
}
// [/snippet:memory_model]

std::vector<float> to_float(std::span<const double> v) { return std::vector<float>(v.begin(), v.end()); }

}  // namespace rscan

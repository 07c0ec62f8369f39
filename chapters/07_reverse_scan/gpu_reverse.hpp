// Host side of chapter 07's kernels: the problem's device arrays, uploads, the forward pass
// that stores h, and the memory each way of getting h costs.
#pragma once

#include "device_buffer.hpp"
#include "reference.hpp"
#include "reverse_kernels.hpp"

#include <span>
#include <vector>

namespace rscan {

// One problem on the device, in fp32. `h` is allocated only when a version that reads the
// stored states is asked for; `checkpoints` only for version 4.
class GpuProblem {
 public:
  GpuProblem(Shape shape, std::span<const float> a, std::span<const float> b, std::span<const float> dy);

  // Runs the forward pass that stores h (allocating it once) when the version needs it,
  // then the version's reverse pass, with the gradients poisoned first.
  void gradients(Kernel kernel);
  // Only the reverse pass (h already stored for versions 1-3): what the benchmark times.
  void backward(Kernel kernel);
  // The gradients and the checkpoints filled with NaN, as gradients() fills them before its
  // reverse pass; the benchmark's checks do it before backward().
  void poison_gradients();
  // The forward pass that stores h (allocated on first use), without poisoning: timed too.
  void store_h();

  std::vector<float> grad_a() const { return grad_a_.download(); }
  std::vector<float> grad_b() const { return grad_b_.download(); }
  Shape shape() const { return shape_; }

 private:
  DeviceProblem view();
  Shape shape_;
  common::DeviceBuffer<float> a_, b_, dy_, h_, grad_a_, grad_b_, checkpoints_;
};

// Bytes version `kernel` keeps between the forward and the reverse pass to know h:
// every h (versions 1-3) or one state per chunk (version 4).
std::size_t bytes_kept_for_h(Kernel kernel, Shape shape);
// Bytes the forward and the reverse pass move together (each array read or written once
// counted once), for a training step that needs the forward's output anyway.
std::size_t bytes_moved_per_step(Kernel kernel, Shape shape);
// Bytes the reverse pass alone moves: what its GB/s counts.
std::size_t bytes_moved_backward(Kernel kernel, Shape shape);

std::vector<float> to_float(std::span<const double> v);

}  // namespace rscan

// One RNN problem on the GPU: weights and inputs uploaded once (as fp32), outputs that can
// be poisoned before each run, and the results brought back for checking.
#pragma once

#include "device_buffer.hpp"
#include "rnn.hpp"
#include "rnn_kernels.hpp"

#include <cstddef>
#include <vector>

namespace rnn {

class GpuRnn {
 public:
  // Throws a one-line error, before allocating, when the problem does not fit in GPU memory.
  GpuRnn(const Weights& w, const Sequences& s);

  void poison_outputs();  // y and h_final become NaN
  void run(Kernel kernel, Activation f, cudaStream_t stream = nullptr);

  std::vector<float> y() const { return y_.download(); }
  std::vector<float> h_final() const { return h_final_.download(); }

  // Bytes a run must move at least: x read and y written (the weights and the final state
  // are negligible next to them, and are left out).
  std::size_t bytes_moved() const { return 2 * x_.bytes(); }

  static std::size_t device_bytes(int hidden, int batch, int length);

 private:
  DeviceProblem problem();
  int hidden_, batch_, length_;
  common::DeviceBuffer<float> W_, u_, c_, x_, y_, h_final_, h_scratch_;
};

}  // namespace rnn

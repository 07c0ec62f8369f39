// One selective discretization problem on the GPU: inputs uploaded once, outputs that can be
// poisoned before each run, and (a prefix of) the results brought back for checking.
#pragma once

#include "device_buffer.hpp"
#include "selective.hpp"
#include "zoh_kernels.hpp"

#include <cstddef>
#include <vector>

namespace zoh {

class GpuDiscretization {
 public:
  // Throws a one-line error, before allocating, when the problem does not fit in GPU memory.
  explicit GpuDiscretization(const SelectiveProblem& p);

  void poison_outputs();  // Ā and B̄ become NaN
  void run(Kernel kernel, Rule rule, cudaStream_t stream = nullptr);

  // The first `count` elements of each output (all of them by default).
  std::vector<float> abar(std::size_t count = SIZE_MAX) const;
  std::vector<float> bbar(std::size_t count = SIZE_MAX) const;

  const SelectiveShape& shape() const { return shape_; }
  static std::size_t device_bytes(const SelectiveShape& s);

 private:
  SelectiveShape shape_;
  common::DeviceBuffer<float> delta_, A_, A_log2e_, B_, Abar_, Bbar_;
};

}  // namespace zoh

// grid_problem.hpp: one grid shape's tensors on the GPU, drawn there (a shape of the grid can
// pass 10^8 elements a tensor, too many to draw and round on the host), with the official
// benchmark's distributions: u, z, dout ~ N(0,1); delta_raw = 0.5 N(0,1); B, C, D ~ N(0,1);
// A[d, n] = -(n + 1) U(0.5, 1.5); delta_bias = softplus^-1(dt), dt log-uniform in [1e-3, 0.1];
// softplus on.
#pragma once

#include "device_buffer.hpp"
#include "grid_shapes.hpp"
#include "selective_scan.hpp"

#include <cstdint>
#include <vector>

namespace ch08::grid {

class GridProblem {
 public:
  GridProblem(const Shape& shape, std::uint64_t seed);

  // The parameters of a call with `kernel`: the forward workspace always given (so that version 5
  // may cut long sequences), the kept states when `keep_states` and the plan keeps any.
  selective_scan::BackwardParams params(selective_scan::Kernel kernel, bool keep_states);

  void poison_outputs();  // every output and gradient to NaN
  // After a forward and a backward: every output and gradient as fp32 on the host, in one
  // vector per tensor (out, out_z, du, ddelta, dz, dA, dB, dC, dD, ddelta_bias; absent ones empty).
  std::vector<std::vector<float>> results() const;
  static constexpr const char* kResultNames[] = {"out", "out_z", "du", "ddelta", "dz",
                                                 "dA",  "dB",    "dC", "dD",     "ddelta_bias"};

 private:
  using Bytes = common::DeviceBuffer<unsigned char>;
  Shape shape_;
  std::size_t input_size_;
  Bytes u_, delta_, z_, dout_, B_, C_, out_, out_z_, du_, ddelta_, dz_;
  common::DeviceBuffer<float> A_, D_, delta_bias_, chunk_states_, dA_, dB_, dC_, dD_, ddelta_bias_;
  common::DeviceBuffer<float> kept_states_;
  Bytes forward_workspace_, backward_workspace_;
};

}  // namespace ch08::grid

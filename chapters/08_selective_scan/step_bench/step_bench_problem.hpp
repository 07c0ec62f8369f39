// step_bench_problem.hpp: one shape's inputs for the step, drawn on the host as the official
// benchmark (triton_bench.py step) draws them -- state, x, dt, z, B, C and D ~ N(0, 1); Mamba-1's
// A = -(4 U[0, 1) + 0.5) per channel and state, Mamba-2's A = -U(1, 16) a head; dt_bias the inverse
// softplus of a step log-uniform in [1e-3, 0.1]; softplus on -- held in fp64 for the reference
// (tests/ch08_selective_scan/step_reference.hpp) and on the GPU in the input type, with the
// state in the input type or fp32. Mamba-2's per-head A, dt, D and dt_bias go to the GPU as the
// Mamba2 module passes them: one value a head (and sequence), zero strides over the rest.
#pragma once

#include "device_buffer.hpp"
#include "step.hpp"
#include "step_reference.hpp"
#include "step_shape.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ch08::step_bench {

struct CheckOutcome {
  bool ok = false;
  double state_error = 0, out_error = 0;  // largest absolute errors against the fp64 reference
  std::string summary;                    // "state: max abs err ..., out: ..." with the failing element, if any
};

class StepBenchProblem {
 public:
  StepBenchProblem(const Shape& shape, std::uint64_t seed);  // draws and uploads every input but the state

  // The state in `state_type` from now on: the drawn state rounded to it, on the GPU, and the
  // reference's result of one step from it.
  void use_state(selective_scan::DataType state_type);
  const selective_scan::StepParams& params() const { return params_; }

  // The state set back to the drawn one, out poisoned (NaN), one step, and its state and out
  // against the reference: |got - ref| <= atol + rtol |ref|, NaN failing.
  CheckOutcome check();

 private:
  using Bytes = common::DeviceBuffer<unsigned char>;
  Shape shape_;
  ch08_step::StepProblem drawn_;  // dense; the state as drawn, the rest as the GPU holds it
  ch08_step::StepResult expected_;
  std::vector<unsigned char> initial_state_;  // the state in its type, as uploaded before each check
  Bytes state_, x_, dt_, z_, B_, C_, out_;
  common::DeviceBuffer<float> A_, D_, dt_bias_;
  selective_scan::StepParams params_;
};

}  // namespace ch08::step_bench

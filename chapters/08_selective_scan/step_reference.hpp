// The one-token step (selective_scan/step.hpp) in fp64 on the CPU, written as plainly as the
// formulas at the top of step.hpp: the GPU tests of the step and its benchmark check against it,
// and a CPU test checks it against chapter 08's reference of the whole recurrence.
#pragma once

#include <cstdint>
#include <vector>

namespace ch08_step {

// Dense tensors in the layouts of step.hpp (every stride the product of the later lengths).
struct StepProblem {
  std::int64_t batch = 1, heads = 1, head_dim = 1, slots = 1;
  int dstate = 1, groups = 1;
  bool softplus = false;
  std::vector<double> state;          // (slots, heads, head_dim, dstate)
  std::vector<double> x, dt, z;       // (batch, heads, head_dim); z empty: no gate
  std::vector<double> A;              // (heads, head_dim, dstate)
  std::vector<double> B, C;           // (batch, groups, dstate)
  std::vector<double> D, dt_bias;     // (heads, head_dim); empty when absent
  std::vector<std::int32_t> indices;  // (batch): each sequence's slot; empty: sequence b is slot b
  std::int32_t pad_slot = -1;

  std::int64_t channels() const { return batch * heads * head_dim; }
};

struct StepResult {
  std::vector<double> state;  // the whole pool after the step
  std::vector<double> out;    // (batch, heads, head_dim); NaN where the sequence was skipped
  std::vector<bool> skipped;  // (batch): its index was the pad value or outside [0, slots)
};

StepResult reference_step(const StepProblem& p);

// What the tests vary.
enum class Slots { own, permutation, pool };  // slot b; a permutation of the batch; a larger pool with pads
struct StepShape {
  std::int64_t batch = 1, heads = 1, head_dim = 1;
  int dstate = 1, groups = 1;
  bool has_D = false, has_z = false, has_dt_bias = false, softplus = false;
  bool per_head = false;  // A constant over a head's channels and states, dt, D and dt_bias over its channels
  Slots slots = Slots::own;
};
// Values drawn from `seed`: state, x, z, B, C, D ~ N(0, 1); dt and dt_bias ~ 0.5 U[0, 1); A ~ -U[0.01, 4).
// Slots::pool: a pool of 2 batch + 3 slots, each sequence its own random slot, the second and the
// last sequences (of a batch of 3 or more) set to pad_slot -1.
StepProblem make_step_problem(const StepShape& shape, unsigned seed);

}  // namespace ch08_step

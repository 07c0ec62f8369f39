// What the GPU tests of the one-token step share: a StepProblem (step_reference.hpp) laid out on
// the GPU as a test asks -- the state fp32 or in the input type, per-head tensors given with zero
// strides, the state off 16 bytes, rows with NaN gaps --, one call of selective_scan::step with
// its output poisoned, and every result judged against the fp64 reference.
#pragma once

#include "selective_scan.hpp"
#include "step.hpp"
#include "step_reference.hpp"

#include <cstdint>
#include <string>

namespace ch08_step {

struct Layout {
  bool state_fp32 = true;         // else the state is in the input type
  bool compact_per_head = false;  // A (heads), dt (batch, heads), D and dt_bias (heads) with zero strides
                                  //   over what they repeat (the problem must be drawn per_head)
  std::int64_t state_offset = 0;  // elements before the state's first (1: its rows off 16 bytes)
  bool gaps = false;              // rows further apart than their lengths, channels 2 apart, the gaps NaN
  bool B_C_strided = false;       // B and C 2 apart along dstate (one state a load), the gaps NaN
};

struct StepOutcome {
  bool ok = true;
  std::string report;  // one line per failed check
  selective_scan::StepPlan plan;
};

// Runs one step of `drawn` (rounded first to what the GPU sees) and compares the state pool and
// out with the reference: the state of every slot the step touches, bit-exact the slots it does
// not, out of every sequence it runs and the poison left in the out of every sequence it skips,
// and the NaN left in every gap.
StepOutcome run_and_compare(const StepProblem& drawn, selective_scan::DataType type, const Layout& layout);

std::string describe(const StepProblem& p, selective_scan::DataType type, const Layout& layout);

}  // namespace ch08_step

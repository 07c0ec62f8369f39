// The one place that decides how step() runs a call: the width of a thread's loads, the threads a
// channel and the channels a block (step.hpp's StepPlan). step.cu launches what it says.
#include "step_plan.hpp"

#include "param_checks.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace selective_scan {
namespace detail {
namespace {

bool on_16_bytes(const void* data) { return reinterpret_cast<std::uintptr_t>(data) % 16 == 0; }

int power_of_two_at_least(std::int64_t n) {
  int p = 1;
  while (p < n) p *= 2;
  return p;
}

}  // namespace

StepPlan make_step_plan(const StepParams& p) {
  const StepSizes& s = p.sizes;
  StepPlan plan;
  plan.decay_per_channel = p.A.state_stride == 0;
  // A 16-byte load of the state needs every row of it (and of A, where A is read along dstate)
  // to start on 16 bytes, and whole vectors in a row.
  const std::int64_t wide = 16 / element_bytes(p.state.type);
  const auto rows_of = [wide](std::int64_t stride) { return stride % wide == 0; };
  bool vector = s.dstate % wide == 0 && on_16_bytes(p.state.data) && rows_of(p.state.slot_stride) &&
                rows_of(p.state.head_stride) && rows_of(p.state.dim_stride);
  if (!plan.decay_per_channel)
    vector =
        vector && p.A.state_stride == 1 && on_16_bytes(p.A.data) && p.A.head_stride % 4 == 0 && p.A.dim_stride % 4 == 0;
  plan.vector = vector ? int(wide) : 1;
  // A channel's states are spread over up to a warp's lanes; a thread takes several vectors only
  // where a warp's lanes hold fewer than the states (fp32 with 256 states: two of 4).
  plan.lanes = std::min(32, power_of_two_at_least((s.dstate + plan.vector - 1) / plan.vector));
  // A block holds one sequence and head's channels, up to kStepThreads threads: fewer where the
  // head has fewer channels, but a whole warp at least. A small call (Mamba-1 at batch 1: 5120
  // channels of 2 lanes, 80 blocks of 128 threads) takes smaller blocks, down to a warp, so that
  // it spreads over every multiprocessor of a large GPU instead of leaving some idle.
  const int fewest = 32 / plan.lanes;
  plan.channels = std::max(fewest, std::min(kStepThreads / plan.lanes, power_of_two_at_least(s.head_dim)));
  const auto blocks = [&](int channels) { return s.batch * s.heads * ((s.head_dim + channels - 1) / channels); };
  while (plan.channels > fewest && blocks(plan.channels) < kStepFillBlocks) plan.channels /= 2;
  return plan;
}

}  // namespace detail

std::string StepPlan::summary() const {
  return std::to_string(vector) + (vector == 1 ? " state" : " states") + " a load, " + std::to_string(lanes) +
         (lanes == 1 ? " lane" : " lanes") + " a channel, " + std::to_string(channels) +
         (channels == 1 ? " channel" : " channels") + " a block, " +
         (decay_per_channel ? "a decay a channel" : "a decay a state");
}

StepPlan step_plan_of(const StepParams& p) {
  if (const std::string problem = validate(p); !problem.empty())
    throw Error("selective_scan::step_plan_of: " + problem);
  return detail::make_step_plan(p);
}

}  // namespace selective_scan

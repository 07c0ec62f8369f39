// The one place that decides how step() runs a call: the width of a thread's loads, the threads a
// channel and the channels a block (step.hpp's StepPlan). step.cu launches what it says.
#include "step_plan.hpp"

#include "param_checks.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>

namespace selective_scan {
namespace detail {
namespace {

int power_of_two_at_least(std::int64_t n) {
  int p = 1;
  while (p < n) p *= 2;
  return p;
}

// Whether the farthest element a tensor's strides reach, and the grid's items, stay below 2^31:
// then every index the kernel forms fits in an int32.
bool offsets_fit_32(const StepParams& p) {
  const StepSizes& s = p.sizes;
  const auto reach = [](std::initializer_list<std::pair<std::int64_t, std::int64_t>> dimensions) {
    double farthest = 0;  // in doubles: no product of sizes can overflow
    for (const auto& [length, stride] : dimensions) farthest += double(length - 1) * double(stride);
    return farthest;
  };
  const auto channel_tensor = [&](std::int64_t batch, std::int64_t head, std::int64_t dim) {
    return reach({{s.batch, batch}, {s.heads, head}, {s.head_dim, dim}});
  };
  // Room below 2^31 for the grid's stride past the last item and a thread's states past a row.
  const double limit = double(INT32_MAX) - double(std::int64_t(1) << 21);
  const double farthest = std::max({
      channel_tensor(p.x.batch_stride, p.x.head_stride, p.x.dim_stride),
      channel_tensor(p.dt.batch_stride, p.dt.head_stride, p.dt.dim_stride),
      channel_tensor(p.z.batch_stride, p.z.head_stride, p.z.dim_stride),
      channel_tensor(p.out.batch_stride, p.out.head_stride, p.out.dim_stride),
      reach({{s.heads, p.D.head_stride}, {s.head_dim, p.D.dim_stride}}),
      reach({{s.heads, p.dt_bias.head_stride}, {s.head_dim, p.dt_bias.dim_stride}}),
      reach({{s.heads, p.A.head_stride}, {s.head_dim, p.A.dim_stride}, {s.dstate, p.A.state_stride}}),
      reach({{s.batch, p.B.batch_stride}, {s.groups, p.B.group_stride}, {s.dstate, p.B.state_stride}}),
      reach({{s.batch, p.C.batch_stride}, {s.groups, p.C.group_stride}, {s.dstate, p.C.state_stride}}),
      reach({{s.slots, p.state.slot_stride}, {s.heads, p.state.head_stride}, {s.head_dim, p.state.dim_stride}}) +
          double(s.dstate),
      double(s.batch) * double(s.heads) * double(s.head_dim),  // the grid's items, at most one a channel
  });
  return farthest < limit;
}

}  // namespace

StepPlan make_step_plan(const StepParams& p) {
  const StepSizes& s = p.sizes;
  StepPlan plan;
  plan.decay_per_channel = p.A.state_stride == 0;
  plan.offsets_32 = offsets_fit_32(p);
  // A thread's states in one load: every row of the state, of A where A varies along dstate, and of
  // B and C must start on that many of its values, and each tensor on as many bytes (up to 16).
  const std::int64_t state_bytes = element_bytes(p.state.type), input_bytes = element_bytes(p.input_type);
  const auto rows_of = [](int vector, const void* data, std::int64_t element,
                          std::initializer_list<std::int64_t> strides) {
    const std::int64_t bytes = std::min<std::int64_t>(16, vector * element);
    return reinterpret_cast<std::uintptr_t>(data) % std::uintptr_t(bytes) == 0 &&
           std::all_of(strides.begin(), strides.end(), [&](std::int64_t stride) { return stride % vector == 0; });
  };
  const auto loads_of = [&](int vector) {
    return s.dstate % vector == 0 &&
           rows_of(vector, p.state.data, state_bytes, {p.state.slot_stride, p.state.head_stride, p.state.dim_stride}) &&
           p.B.state_stride == 1 && rows_of(vector, p.B.data, input_bytes, {p.B.batch_stride, p.B.group_stride}) &&
           p.C.state_stride == 1 && rows_of(vector, p.C.data, input_bytes, {p.C.batch_stride, p.C.group_stride}) &&
           (plan.decay_per_channel ||
            (p.A.state_stride == 1 && rows_of(vector, p.A.data, 4, {p.A.head_stride, p.A.dim_stride})));
  };
  const int wide = kStepStateBytes / int(state_bytes);
  plan.vector = loads_of(wide) ? wide : loads_of(kStepNarrowVector) ? kStepNarrowVector : 1;
  // A channel's states are spread over up to a warp's lanes; a thread takes several vectors only
  // where a warp's lanes hold fewer than the states (256 states in loads of 4: two a lane).
  plan.lanes = std::min(32, power_of_two_at_least((s.dstate + plan.vector - 1) / plan.vector));
  // A block holds one sequence and head's channels, up to kStepThreads threads: fewer where the
  // head has fewer channels, but a whole warp at least. A small call (Mamba-1 at batch 1: 5120
  // channels of a lane each, 40 blocks of 128 threads) takes smaller blocks, down to a warp, so that
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
         (decay_per_channel ? "a decay a channel" : "a decay a state") + (offsets_32 ? ", 32-bit offsets" : "");
}

StepPlan step_plan_of(const StepParams& p) {
  if (const std::string problem = validate(p); !problem.empty())
    throw Error("selective_scan::step_plan_of: " + problem);
  return detail::make_step_plan(p);
}

}  // namespace selective_scan

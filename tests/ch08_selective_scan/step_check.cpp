#include "step_check.hpp"

#include "ch08_test_support.hpp"
#include "compare.hpp"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "device_problem.hpp"

#include <cmath>
#include <limits>
#include <memory>
#include <set>
#include <sstream>
#include <vector>

namespace ch08_step {
namespace {

using selective_scan::DataType;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A tensor's place in memory: lengths and strides outermost first, and the elements before its first.
struct Strided {
  std::vector<std::int64_t> lengths, strides;
  std::int64_t offset = 0;

  std::int64_t elements() const {
    std::int64_t count = 1;
    for (std::int64_t l : lengths) count *= l;
    return count;
  }
  std::int64_t span() const {  // elements from the buffer's start to one past the last
    std::int64_t last = offset;
    for (std::size_t i = 0; i < lengths.size(); ++i) last += (lengths[i] - 1) * strides[i];
    return last + 1;
  }
  // visit(dense index, memory index) for every element, in dense order.
  template <class Visit>
  void each(Visit visit) const {
    std::vector<std::int64_t> at(lengths.size(), 0);
    for (std::int64_t dense = 0;; ++dense) {
      std::int64_t memory = offset;
      for (std::size_t i = 0; i < at.size(); ++i) memory += at[i] * strides[i];
      visit(std::size_t(dense), std::size_t(memory));
      std::size_t i = at.size();
      while (i > 0 && ++at[i - 1] == lengths[i - 1]) at[--i] = 0;
      if (i == 0) return;
    }
  }
};

// Strides of dense rows, each dimension's rows `gap` elements further apart than they need be.
Strided rows(std::vector<std::int64_t> lengths, std::int64_t inner_stride, std::int64_t gap) {
  Strided s;
  s.lengths = lengths;
  s.strides.assign(lengths.size(), inner_stride);
  for (std::size_t i = lengths.size() - 1; i > 0; --i) s.strides[i - 1] = s.strides[i] * lengths[i] + gap;
  return s;
}

// A tensor on the GPU: its values placed as `layout` says in a NaN-filled buffer of `type`.
struct Placed {
  Strided layout;
  DataType type;
  common::DeviceBuffer<unsigned char> buffer;

  Placed(const std::vector<double>& dense, Strided l, DataType t) : layout(std::move(l)), type(t) {
    std::vector<double> memory(std::size_t(layout.span()), kNaN);
    layout.each([&](std::size_t i, std::size_t m) { memory[m] = dense[i]; });
    const std::vector<unsigned char> bytes = ch08::encoded(memory, type);
    buffer = common::DeviceBuffer<unsigned char>(std::span<const unsigned char>(bytes));
  }
  std::size_t element_bytes() const { return type == DataType::float32 ? 4 : 2; }
  void* data() { return buffer.data() + std::size_t(layout.offset) * element_bytes(); }
  // The values back, dense; `gaps_kept` turns false if anything outside the tensor is no longer NaN.
  std::vector<double> download(bool& gaps_kept) const {
    std::vector<double> memory = ch08::decoded(buffer.download(), type);
    std::vector<double> dense(std::size_t(layout.elements()));
    layout.each([&](std::size_t i, std::size_t m) {
      dense[i] = memory[m];
      memory[m] = kNaN;
    });
    for (double v : memory) gaps_kept = gaps_kept && std::isnan(v);
    return dense;
  }
};

StepProblem as_gpu_sees(const StepProblem& p, DataType type, DataType state_type) {
  StepProblem q = p;
  for (std::vector<double>* v : {&q.x, &q.dt, &q.z, &q.B, &q.C}) *v = ch08::round_to(*v, type);
  q.state = ch08::round_to(p.state, state_type);
  for (std::vector<double>* v : {&q.A, &q.D, &q.dt_bias}) *v = ch08::round_to(*v, DataType::float32);
  return q;
}

// The kernel computes in fp32 and rounds once to the state's or the output's type: a relative
// bound of that type's rounding (half an ulp, doubled) on top of fp32's error, which is absolute
// where terms of up to 25 (dt x B) cancel, and in out a sum of up to 256 of them, gated.
common::Tolerance tolerance(DataType type, bool output) {
  const double atol = output ? 5e-4 : 1e-4;
  switch (type) {
    case DataType::float32: return {atol, output ? 1e-4 : 1e-5};
    case DataType::float16: return {atol, 1e-3};
    case DataType::bfloat16: return {atol, 8e-3};
  }
  return {};
}

}  // namespace

std::string describe(const StepProblem& p, DataType type, const Layout& layout) {
  std::ostringstream s;
  s << ch08_test::type_name(type) << " state " << (layout.state_fp32 ? "fp32" : "input type") << " batch " << p.batch
    << " heads " << p.heads << " head_dim " << p.head_dim << " dstate " << p.dstate << " groups " << p.groups
    << " slots " << p.slots << (p.indices.empty() ? " no indices" : " indices") << " D " << !p.D.empty() << " z "
    << !p.z.empty() << " dt_bias " << !p.dt_bias.empty() << " softplus " << p.softplus << " per-head strides "
    << layout.compact_per_head << " state offset " << layout.state_offset << " gaps " << layout.gaps
    << " B and C strided " << layout.B_C_strided;
  return s.str();
}

StepOutcome run_and_compare(const StepProblem& drawn, DataType type, const Layout& layout) {
  const DataType state_type = layout.state_fp32 ? DataType::float32 : type;
  const StepProblem p = as_gpu_sees(drawn, type, state_type);
  const StepResult expected = reference_step(p);
  const std::int64_t H = p.heads, P = p.head_dim, N = p.dstate, G = p.groups;
  const std::int64_t gap = layout.gaps ? 8 : 0;  // 8 elements keep rows on 16 bytes in every type

  // (batch, heads, head_dim) tensors: channels 2 apart with gaps, else contiguous.
  const auto channels = [&] { return layout.gaps ? rows({p.batch, H, P}, 2, 3) : rows({p.batch, H, P}, 1, 0); };
  // Per head: the full lengths, zero strides over what a value repeats along.
  const auto per_head = [](std::vector<std::int64_t> lengths, std::vector<std::int64_t> strides) {
    Strided s;
    s.lengths = std::move(lengths), s.strides = std::move(strides);
    return s;
  };
  Strided state_layout = rows({p.slots, H, P, N}, 1, gap);
  state_layout.offset = layout.state_offset;
  Placed state(p.state, state_layout, state_type);
  Placed x(p.x, channels(), type);
  // dt (batch, heads) expanded: one value a head and sequence.
  Placed dt(p.dt, layout.compact_per_head ? per_head({p.batch, H, P}, {H, 1, 0}) : channels(), type);
  Placed A(p.A, layout.compact_per_head ? per_head({H, P, N}, {1, 0, 0}) : rows({H, P, N}, 1, layout.gaps ? 4 : 0),
           DataType::float32);
  const Strided group_rows = layout.B_C_strided ? rows({p.batch, G, N}, 2, 1) : rows({p.batch, G, N}, 1, gap);
  Placed B(p.B, group_rows, type), C(p.C, group_rows, type);
  const auto weights = [&] {
    if (layout.compact_per_head) return per_head({H, P}, {1, 0});
    return layout.gaps ? rows({H, P}, 2, 1) : rows({H, P}, 1, 0);
  };
  std::vector<std::unique_ptr<Placed>> optional;
  const auto place_optional = [&](const std::vector<double>& dense, Strided l, DataType t) -> Placed* {
    if (dense.empty()) return nullptr;
    optional.push_back(std::make_unique<Placed>(dense, std::move(l), t));
    return optional.back().get();
  };
  Placed* D = place_optional(p.D, weights(), DataType::float32);
  Placed* dt_bias = place_optional(p.dt_bias, weights(), DataType::float32);
  Placed* z = place_optional(p.z, channels(), type);
  Placed out(std::vector<double>(std::size_t(p.channels()), kNaN), channels(), type);  // poisoned
  common::DeviceBuffer<std::int32_t> indices(std::span<const std::int32_t>(p.indices));

  selective_scan::StepParams params;
  params.sizes = {p.batch, H, P, int(N), int(G), p.slots};
  params.input_type = type;
  params.dt_softplus = p.softplus;
  const auto& st = state.layout.strides;
  params.state = {state.data(), state_type, st[0], st[1], st[2]};
  const auto channel_input = [](Placed& t) {
    const auto& s = t.layout.strides;
    return selective_scan::StepInput{t.data(), t.type, s[0], s[1], s[2]};
  };
  params.x = channel_input(x);
  params.dt = channel_input(dt);
  if (z) params.z = channel_input(*z);
  const auto& out_strides = out.layout.strides;
  params.out = {out.data(), type, out_strides[0], out_strides[1], out_strides[2]};
  const auto& as = A.layout.strides;
  params.A = {static_cast<const float*>(A.data()), as[0], as[1], as[2]};
  const auto group_input = [](Placed& t) {
    const auto& s = t.layout.strides;
    return selective_scan::GroupInput{t.data(), t.type, s[0], s[1], s[2]};
  };
  params.B = group_input(B);
  params.C = group_input(C);
  const auto channel_weights = [](Placed* t) {
    if (!t) return selective_scan::ChannelWeights{};
    return selective_scan::ChannelWeights{static_cast<const float*>(t->data()), t->layout.strides[0],
                                          t->layout.strides[1]};
  };
  params.D = channel_weights(D);
  params.dt_bias = channel_weights(dt_bias);
  if (!p.indices.empty()) params.state_batch_indices = indices.data();
  params.pad_slot = p.pad_slot;

  StepOutcome outcome;
  outcome.plan = selective_scan::step_plan_of(params);
  selective_scan::step(params);
  CUDA_CHECK(cudaDeviceSynchronize());

  const auto fail = [&](const std::string& line) {
    outcome.ok = false;
    outcome.report += line + "\n";
  };
  bool state_gaps = true, out_gaps = true;
  const std::vector<double> got_state = state.download(state_gaps);
  const std::vector<double> got_out = out.download(out_gaps);
  if (!state_gaps) fail("the state: something was written outside its rows");
  if (!out_gaps) fail("out: something was written outside its elements");

  // The state of the slots the step touched, to the tolerance; the others bit for bit.
  std::set<std::int64_t> touched;
  for (std::int64_t b = 0; b < p.batch; ++b)
    if (!expected.skipped[std::size_t(b)]) touched.insert(p.indices.empty() ? b : p.indices[std::size_t(b)]);
  std::vector<double> got_touched, expected_touched;
  const std::int64_t per_slot = H * P * N;
  for (std::int64_t slot = 0; slot < p.slots; ++slot)
    for (std::int64_t i = slot * per_slot; i < (slot + 1) * per_slot; ++i) {
      const double g = got_state[std::size_t(i)], e = expected.state[std::size_t(i)];
      if (touched.count(slot)) {
        got_touched.push_back(g);
        expected_touched.push_back(e);
      } else if (!(g == e)) {
        fail("the state of slot " + std::to_string(slot) + ", which no sequence names, changed");
        break;
      }
    }
  if (!got_touched.empty()) {
    const common::Comparison check = common::compare(got_touched, expected_touched, tolerance(state_type, false));
    if (!check.ok) fail("state: " + check.summary());
  }

  std::vector<double> got_run, expected_run;
  const std::int64_t per_sequence = H * P;
  for (std::int64_t b = 0; b < p.batch; ++b)
    for (std::int64_t i = b * per_sequence; i < (b + 1) * per_sequence; ++i) {
      if (!expected.skipped[std::size_t(b)]) {
        got_run.push_back(got_out[std::size_t(i)]);
        expected_run.push_back(expected.out[std::size_t(i)]);
      } else if (!std::isnan(got_out[std::size_t(i)])) {
        fail("out of sequence " + std::to_string(b) + ", which the step skips, was written");
        break;
      }
    }
  if (!got_run.empty()) {
    const common::Comparison check = common::compare(got_run, expected_run, tolerance(type, true));
    if (!check.ok) fail("out: " + check.summary());
  }
  return outcome;
}

}  // namespace ch08_step

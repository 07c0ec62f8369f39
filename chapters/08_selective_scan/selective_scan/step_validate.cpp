// validate() for the one-token step: the whole parameter struct, checked before anything is
// launched. The first problem found comes back as one line; "" when there is none.
#include "param_checks.hpp"
#include "sizes_fit.hpp"
#include "step.hpp"

#include <cstdint>
#include <string>

namespace selective_scan {
namespace {

using detail::check_alignment;
using detail::element_bytes;
using detail::first_of;
using detail::type_name;

std::string check_sizes(const StepSizes& s, bool indexed) {
  if (s.batch < 1 || s.heads < 1 || s.head_dim < 1)
    return "batch, heads and head_dim must be at least 1 (got " + std::to_string(s.batch) + ", " +
           std::to_string(s.heads) + ", " + std::to_string(s.head_dim) + ")";
  if (s.dstate < 1 || s.dstate > kMaxStates)
    return "dstate must be in [1, " + std::to_string(kMaxStates) + "] (got " + std::to_string(s.dstate) + ")";
  if (s.groups < 1) return "groups must be at least 1 (got " + std::to_string(s.groups) + ")";
  if (s.heads % s.groups != 0)
    return "heads (" + std::to_string(s.heads) + ") must be divisible by groups (" + std::to_string(s.groups) + ")";
  if (s.slots < 0) return "slots must be at least 1, or 0 for batch (got " + std::to_string(s.slots) + ")";
  if (!indexed && s.slots != 0 && s.slots < s.batch)
    return "slots (" + std::to_string(s.slots) + ") must be at least batch (" + std::to_string(s.batch) +
           ") without state_batch_indices";
  // Every tensor's reach is checked below; this bounds the kernel's count of states and channels,
  // which broadcast (zero) strides would otherwise leave unchecked.
  return detail::product_does_not_fit("the step's states", "batch * heads * head_dim * dstate",
                                      {s.batch, s.heads, s.head_dim, s.dstate}, sizeof(float), "floats");
}

// x, dt, z, out: (batch, heads, head_dim) in the input type.
template <class Tensor>
std::string check_channels(const Tensor& t, const char* what, DataType input_type, bool required, const StepSizes& s) {
  if (!t.data) return required ? std::string(what) + " is required but its pointer is null" : "";
  if (t.type != input_type)
    return std::string(what) + " is " + type_name(t.type) + " but the input type is " + type_name(input_type);
  if (t.batch_stride < 0 || t.head_stride < 0 || t.dim_stride < 0) return std::string(what) + " has a negative stride";
  return first_of({
      check_alignment(t.data, element_bytes(t.type), what),
      detail::reach_does_not_fit(what,
                                 {{s.batch, t.batch_stride, "batch", "batch_stride"},
                                  {s.heads, t.head_stride, "heads", "head_stride"},
                                  {s.head_dim, t.dim_stride, "head_dim", "dim_stride"}},
                                 1, nullptr, element_bytes(t.type)),
  });
}

std::string check_state(const StepState& t, DataType input_type, const StepSizes& s) {
  if (!t.data) return "state is required but its pointer is null";
  if (t.type != DataType::float32 && t.type != input_type)
    return std::string("state is ") + type_name(t.type) + " but must be float32 or the input type (" +
           type_name(input_type) + ")";
  if (t.slot_stride < 0 || t.head_stride < 0 || t.dim_stride < 0) return "state has a negative stride";
  const std::int64_t slots = s.slots == 0 ? s.batch : s.slots;
  return first_of({
      check_alignment(t.data, element_bytes(t.type), "state"),
      detail::reach_does_not_fit("state",
                                 {{slots, t.slot_stride, "slots", "slot_stride"},
                                  {s.heads, t.head_stride, "heads", "head_stride"},
                                  {s.head_dim, t.dim_stride, "head_dim", "dim_stride"}},
                                 s.dstate, "dstate", element_bytes(t.type)),
  });
}

std::string check_group_input(const GroupInput& t, const char* what, DataType input_type, const StepSizes& s) {
  if (!t.data) return std::string(what) + " is required but its pointer is null";
  if (t.type != input_type)
    return std::string(what) + " is " + type_name(t.type) + " but the input type is " + type_name(input_type);
  if (t.batch_stride < 0 || t.group_stride < 0 || t.state_stride < 0)
    return std::string(what) + " has a negative stride";
  return first_of({
      check_alignment(t.data, element_bytes(t.type), what),
      detail::reach_does_not_fit(what,
                                 {{s.batch, t.batch_stride, "batch", "batch_stride"},
                                  {s.groups, t.group_stride, "groups", "group_stride"},
                                  {s.dstate, t.state_stride, "dstate", "state_stride"}},
                                 1, nullptr, element_bytes(t.type)),
  });
}

std::string check_A(const StateWeights& A, const StepSizes& s) {
  if (!A.data) return "A is required but its pointer is null";
  if (A.head_stride < 0 || A.dim_stride < 0 || A.state_stride < 0) return "A has a negative stride";
  return first_of({
      check_alignment(A.data, sizeof(float), "A"),
      detail::reach_does_not_fit("A",
                                 {{s.heads, A.head_stride, "heads", "head_stride"},
                                  {s.head_dim, A.dim_stride, "head_dim", "dim_stride"},
                                  {s.dstate, A.state_stride, "dstate", "state_stride"}},
                                 1, nullptr, sizeof(float)),
  });
}

// D and dt_bias: optional (heads, head_dim) fp32.
std::string check_channel_weights(const ChannelWeights& w, const char* what, const StepSizes& s) {
  if (!w.data) return "";
  if (w.head_stride < 0 || w.dim_stride < 0) return std::string(what) + " has a negative stride";
  return first_of({
      check_alignment(w.data, sizeof(float), what),
      detail::reach_does_not_fit(
          what,
          {{s.heads, w.head_stride, "heads", "head_stride"}, {s.head_dim, w.dim_stride, "head_dim", "dim_stride"}}, 1,
          nullptr, sizeof(float)),
  });
}

}  // namespace

std::string validate(const StepParams& p) {
  const DataType t = p.input_type;
  const StepSizes& s = p.sizes;
  if (!detail::known(t)) return "input_type is not float32, float16 or bfloat16";
  return first_of({
      check_sizes(s, p.state_batch_indices != nullptr),
      check_state(p.state, t, s),
      check_channels(p.x, "x", t, true, s),
      check_channels(p.dt, "dt", t, true, s),
      check_A(p.A, s),
      check_group_input(p.B, "B", t, s),
      check_group_input(p.C, "C", t, s),
      check_channel_weights(p.D, "D", s),
      check_channel_weights(p.dt_bias, "dt_bias", s),
      check_channels(p.z, "z", t, false, s),
      check_channels(p.out, "out", t, true, s),
      check_alignment(p.state_batch_indices, sizeof(std::int32_t), "state_batch_indices"),
  });
}

}  // namespace selective_scan

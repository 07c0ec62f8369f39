// The library's entry points: check a call completely, make its plan (plan.cpp), then run the
// planned version's kernel for its input type and real/complex A. Nothing is launched for a call
// that validate() rejects.
#include "param_checks.hpp"
#include "plan.hpp"
#include "scan_args.hpp"
#include "selective_scan.hpp"
#include "sizes_fit.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <climits>
#include <cstdint>
#include <string>

namespace selective_scan {
namespace {

using detail::check_alignment;
using detail::element_bytes;
using detail::first_of;
using detail::known;
using detail::type_name;

// Each check returns the first problem it finds as one line, or "" when there is none.
std::string check_sizes(const Sizes& s, bool any_variable, bool is_complex) {
  if (s.batch < 1 || s.dim < 1 || s.seqlen < 1)
    return "batch, dim and seqlen must be at least 1 (got " + std::to_string(s.batch) + ", " + std::to_string(s.dim) +
           ", " + std::to_string(s.seqlen) + ")";
  if (s.dstate < 1 || s.dstate > kMaxStates)
    return "dstate must be in [1, " + std::to_string(kMaxStates) + "] (got " + std::to_string(s.dstate) + ")";
  if (s.groups < 1) return "groups must be at least 1 (got " + std::to_string(s.groups) + ")";
  if (any_variable && s.dim % s.groups != 0)
    return "dim (" + std::to_string(s.dim) + ") must be divisible by groups (" + std::to_string(s.groups) + ")";
  return detail::sizes_do_not_fit(s, is_complex);
}

template <class Tensor>
std::string check_sequence(const Tensor& t, const char* what, DataType input_type, bool required, const Sizes& s) {
  if (!t.data) return required ? std::string(what) + " is required but its pointer is null" : "";
  if (t.type != input_type)
    return std::string(what) + " is " + type_name(t.type) + " but the input type is " + type_name(input_type);
  if (t.batch_stride < 0 || t.dim_stride < 0) return std::string(what) + " has a negative stride";
  return first_of({
      check_alignment(t.data, element_bytes(t.type), what),
      detail::reach_does_not_fit(
          what, {{s.batch, t.batch_stride, "batch", "batch_stride"}, {s.dim, t.dim_stride, "dim", "dim_stride"}},
          s.seqlen, "seqlen", element_bytes(t.type)),
  });
}

// Packed sequences: batch 1, a count that the offsets (int32) can hold, and both given or neither.
std::string check_packing(const ForwardParams& p) {
  const Sizes& s = p.sizes;
  if (!p.cu_seqlens)
    return p.sequences != 0 ? "sequences is given (" + std::to_string(p.sequences) + ") but cu_seqlens is not" : "";
  if (s.batch != 1) return "packed sequences (cu_seqlens) need batch 1 (got " + std::to_string(s.batch) + ")";
  if (s.seqlen > INT32_MAX)
    return "packed sequences' offsets are int32: seqlen must be at most 2^31 - 1 (got " + std::to_string(s.seqlen) +
           ")";
  if (p.sequences < 1 || p.sequences > s.seqlen)
    return "sequences must be in [1, seqlen] = [1, " + std::to_string(s.seqlen) + "] with cu_seqlens (got " +
           std::to_string(p.sequences) + ")";
  return check_alignment(p.cu_seqlens, sizeof(std::int32_t), "cu_seqlens");
}

// A (dim, dstate) fp32 tensor with a stride along dim, in floats (complex: in pairs).
std::string check_per_channel_states(const void* data, std::int64_t dim_stride, const char* what, bool is_complex,
                                     const Sizes& s) {
  const std::int64_t value_bytes = is_complex ? 8 : 4;
  return first_of({
      check_alignment(data, sizeof(float), what),
      detail::reach_does_not_fit(what, {{s.dim, dim_stride, "dim", "dim_stride"}}, s.dstate, "dstate", value_bytes),
  });
}

std::string check_projection(const StateProjection<const void*>& p, const char* what, DataType input_type,
                             bool is_complex, const Sizes& s) {
  if (!p.data) return std::string(what) + " is required but its pointer is null";
  const DataType expected = p.variable ? input_type : DataType::float32;
  if (p.type != expected)
    return std::string(what) + " is " + type_name(p.type) + " but a " + (p.variable ? "variable " : "constant ") +
           what + " must be " + type_name(expected);
  if (p.batch_stride < 0 || p.group_stride < 0 || p.state_stride < 0 || p.dim_stride < 0)
    return std::string(what) + " has a negative stride";
  if (!p.variable) return check_per_channel_states(p.data, p.dim_stride, what, is_complex, s);
  // A complex variable B or C holds (seqlen, 2) real numbers a row; its strides count each one.
  const std::int64_t row = detail::checked_product({s.seqlen, is_complex ? 2 : 1}).value_or(0);
  return first_of({
      check_alignment(p.data, element_bytes(p.type), what),
      detail::reach_does_not_fit(what,
                                 {{s.batch, p.batch_stride, "batch", "batch_stride"},
                                  {s.groups, p.group_stride, "groups", "group_stride"},
                                  {s.dstate, p.state_stride, "dstate", "state_stride"}},
                                 row, is_complex ? "seqlen * 2" : "seqlen", element_bytes(p.type)),
  });
}

// [snippet:run_plan]
template <class Input, bool kComplex>
void run_forward(const detail::ScanArgs& args, const detail::CallPlan& call, cudaStream_t stream) {
  switch (call.plan.forward) {
    case Kernel::naive: return detail::naive_forward<Input, kComplex>(args, stream);
    case Kernel::lanes: return detail::lanes_forward<Input, kComplex>(args, stream);
    case Kernel::registers: return detail::registers_forward<Input, kComplex>(args, stream);
    case Kernel::ring:
      if constexpr (!kComplex) return detail::ring_forward<Input>(args, call.ring_forward, stream);
      break;
    case Kernel::blocked: return detail::blocked_forward<Input, kComplex>(args, stream);
    case Kernel::automatic: break;
  }
  throw Error("selective_scan: internal error: no forward body for this plan");
}
template <class Input, bool kComplex>
void run_backward(const detail::ScanArgs& args, const detail::CallPlan& call, cudaStream_t stream) {
  switch (call.plan.backward) {
    case Kernel::naive: return detail::naive_backward<Input, kComplex>(args, stream);
    case Kernel::blocked: return detail::blocked_backward<Input, kComplex>(args, stream);
    case Kernel::registers:
      if constexpr (!kComplex) return detail::registers_backward<Input>(args, stream);
      break;
    case Kernel::ring:
      if constexpr (!kComplex) return detail::checkpoints_backward<Input>(args, call.ring_backward, stream);
      break;
    case Kernel::lanes:
    case Kernel::automatic: break;
  }
  throw Error("selective_scan: internal error: no backward body for this plan");
}
// [/snippet:run_plan]

// Calls Run<Input, kComplex>::call(...) for the call's input type and A.
template <template <class, bool> class Run>
void dispatch(DataType type, bool is_complex, const detail::ScanArgs& args, const detail::CallPlan& call,
              cudaStream_t stream) {
  const auto with = [&](auto input) {
    using Input = decltype(input);
    if (is_complex)
      Run<Input, true>::call(args, call, stream);
    else
      Run<Input, false>::call(args, call, stream);
  };
  switch (type) {
    case DataType::float32: return with(float{});
    case DataType::float16: return with(__half{});
    case DataType::bfloat16: return with(__nv_bfloat16{});
  }
}
template <class Input, bool kComplex>
struct Forward {
  static void call(const detail::ScanArgs& a, const detail::CallPlan& c, cudaStream_t s) {
    run_forward<Input, kComplex>(a, c, s);
  }
};
template <class Input, bool kComplex>
struct Backward {
  static void call(const detail::ScanArgs& a, const detail::CallPlan& c, cudaStream_t s) {
    run_backward<Input, kComplex>(a, c, s);
  }
};

// A forward call as its backward would see it: deterministic off, dout laid out like u, and no
// gradient buffers yet (their alignment is the backward's own to check).
detail::ScanArgs as_backward_sees(const ForwardParams& p) {
  detail::ScanArgs a = detail::make_args(p);
  a.dout = a.u;
  a.deterministic = false;
  return a;
}

// Every check of validate() but the ones that need the plan.
std::string check_forward(const ForwardParams& p) {
  const DataType t = p.input_type;
  const Sizes& s = p.sizes;
  const bool is_complex = p.flags.complex;
  if (p.kernel != Kernel::automatic && !version_of(p.kernel)) return "unknown kernel version";
  if (!version_built(p.kernel)) return detail::not_built(p.kernel);
  if (!known(t)) return "input_type is not float32, float16 or bfloat16";
  return first_of({
      check_sizes(s, p.B.variable || p.C.variable, is_complex),
      check_packing(p),
      check_sequence(p.u, "u", t, true, s),
      check_sequence(p.delta, "delta", t, true, s),
      check_sequence(p.z, "z", t, false, s),
      p.A ? "" : "A is required but its pointer is null",
      p.A_dim_stride < 0 ? "A has a negative stride"
                         : check_per_channel_states(p.A, p.A_dim_stride, "A", is_complex, s),
      check_projection(p.B, "B", t, is_complex, s),
      check_projection(p.C, "C", t, is_complex, s),
      check_alignment(p.D, sizeof(float), "D"),
      check_alignment(p.delta_bias, sizeof(float), "delta_bias"),
      check_alignment(p.initial_state, sizeof(float), "initial_state"),
      check_sequence(p.out, "out", t, true, s),
      check_sequence(p.out_z, "out_z", t, p.z.data != nullptr, s),
      p.out_z.data && !p.z.data ? "out_z is given but z is not" : "",
      p.chunk_states ? check_alignment(p.chunk_states, sizeof(float), "chunk_states")
                     : "chunk_states is required but its pointer is null",
      check_alignment(p.last_state, sizeof(float), "last_state"),
      check_alignment(p.state_checkpoints, sizeof(float), "state_checkpoints"),
      check_alignment(p.workspace, 16, "the workspace"),
  });
}

std::string check_backward(const BackwardParams& p) {
  const ForwardParams& f = p.forward;
  const DataType t = f.input_type;
  const Sizes& s = f.sizes;
  const auto gradient = [](const float* data, const char* what) {
    return data ? check_alignment(data, sizeof(float), what)
                : std::string(what) + " is required but its pointer is null";
  };
  return first_of({
      check_forward(f),
      check_sequence(p.dout, "dout", t, true, s),
      check_sequence(p.du, "du", t, true, s),
      check_sequence(p.ddelta, "ddelta", t, true, s),
      check_sequence(p.dz, "dz", t, f.z.data != nullptr, s),
      p.dz.data && !f.z.data ? "dz is given but z is not" : "",
      gradient(p.dA, "dA"),
      gradient(p.dB, "dB"),
      gradient(p.dC, "dC"),
      f.D && !p.dD ? "dD is required when D is given" : check_alignment(p.dD, sizeof(float), "dD"),
      f.delta_bias && !p.ddelta_bias ? "ddelta_bias is required when delta_bias is given"
                                     : check_alignment(p.ddelta_bias, sizeof(float), "ddelta_bias"),
      p.dinitial_state && !f.initial_state ? "dinitial_state is given but initial_state is not"
                                           : check_alignment(p.dinitial_state, sizeof(float), "dinitial_state"),
      check_alignment(p.dlast_state, sizeof(float), "dlast_state"),
      // Every version's backward sums per-channel partial gradients there.
      p.workspace ? "" : "workspace is required (see backward_workspace_bytes)",
  });
}

// sizing: the plan a caller sizes its buffers by (it assumes the forward's workspace is given).
detail::CallPlan call_plan_without_checks(const ForwardParams& p, bool sizing = false) {
  return detail::make_plan(p.kernel, detail::make_args(p), as_backward_sees(p), p.flags.complex, p.input_type, sizing);
}
detail::CallPlan call_plan_without_checks(const BackwardParams& p, bool sizing = false) {
  return detail::make_plan(p.forward.kernel, detail::make_args(p.forward), detail::make_args(p),
                           p.forward.flags.complex, p.forward.input_type, sizing);
}
template <class Params>
Plan plan_without_checks(const Params& p, bool sizing = false) {
  return call_plan_without_checks(p, sizing).plan;
}

// The check that needs the plan: an explicit version is given kept states only where its forward
// keeps them. Kernel::automatic takes them as an offer: its plan uses them where it chose version
// 5 both ways, and leaves them alone elsewhere. The plan asks the driver, so it is made only for a
// call that gives kept states -- the same plan the entry point would run (a backward's own: its
// flags can send it elsewhere than a forward's plan would).
template <class Params>
std::string check_plan(const ForwardParams& p, const Params& call, const Plan* plan) {
  if (!p.state_checkpoints || p.kernel == Kernel::automatic) return "";
  const std::int64_t kept = plan ? plan->state_checkpoints_floats : plan_without_checks(call).state_checkpoints_floats;
  return kept == 0 ? "state_checkpoints is given but this call keeps none (state_checkpoints_floats is 0)" : "";
}

}  // namespace

std::string check_cu_seqlens(const std::int32_t* cu, std::int64_t sequences, std::int64_t seqlen) {
  if (!cu) return "cu_seqlens is null";
  if (sequences < 1) return "sequences must be at least 1 (got " + std::to_string(sequences) + ")";
  if (cu[0] != 0) return "cu_seqlens[0] must be 0 (got " + std::to_string(cu[0]) + ")";
  for (std::int64_t q = 0; q < sequences; ++q)
    if (cu[q + 1] <= cu[q])
      return "cu_seqlens must increase, every sequence a step: cu_seqlens[" + std::to_string(q + 1) +
             "] = " + std::to_string(cu[q + 1]) + " after " + std::to_string(cu[q]);
  if (cu[sequences] != seqlen)
    return "cu_seqlens[" + std::to_string(sequences) + "] must be seqlen = " + std::to_string(seqlen) + " (got " +
           std::to_string(cu[sequences]) + ")";
  return "";
}

// 0 for sizes that validate() refuses: their product may not fit (nor mean anything).
std::int64_t chunk_states_floats(const Sizes& s, bool is_complex) {
  if (!check_sizes(s, false, is_complex).empty()) return 0;
  const std::int64_t chunks = s.seqlen / kChunkLength + (s.seqlen % kChunkLength != 0);
  return s.batch * s.dim * chunks * s.dstate * (is_complex ? 2 : 1);
}

// Every refusal of validate(), the plan's own too.
Plan plan_of(const ForwardParams& p) {
  if (const std::string problem = check_forward(p); !problem.empty())
    throw Error("selective_scan::plan_of: " + problem);
  Plan plan = plan_without_checks(p);
  if (const std::string problem = check_plan(p, p, &plan); !problem.empty())
    throw Error("selective_scan::plan_of: " + problem);
  return plan;
}
Plan plan_of(const BackwardParams& p) {
  if (const std::string problem = check_backward(p); !problem.empty())
    throw Error("selective_scan::plan_of: " + problem);
  Plan plan = plan_without_checks(p);
  if (const std::string problem = check_plan(p.forward, p, &plan); !problem.empty())
    throw Error("selective_scan::plan_of: " + problem);
  return plan;
}

std::string validate(const ForwardParams& p) {
  if (std::string problem = check_forward(p); !problem.empty()) return problem;
  try {
    return check_plan(p, p, nullptr);
  } catch (const Error& e) {  // the driver's answer, when the plan could not be made
    return e.what();
  }
}
std::string validate(const BackwardParams& p) {
  if (std::string problem = check_backward(p); !problem.empty()) return problem;
  try {
    return check_plan(p.forward, p, nullptr);
  } catch (const Error& e) {
    return e.what();
  }
}

// The sizes a caller allocates, before it has every buffer: only the sizes, the input type and
// the version need to be valid (else 0), and so every count the plan derives fits.
bool sizes_known(const ForwardParams& p) {
  return version_built(p.kernel) && known(p.input_type) &&
         check_sizes(p.sizes, p.B.variable || p.C.variable, p.flags.complex).empty();
}
std::int64_t state_checkpoints_floats(const ForwardParams& p) {
  return sizes_known(p) ? plan_without_checks(p, true).state_checkpoints_floats : 0;
}
std::size_t forward_workspace_bytes(const ForwardParams& p) {
  return sizes_known(p) ? plan_without_checks(p, true).forward_workspace_bytes : 0;
}
std::size_t backward_workspace_bytes(const BackwardParams& p) {
  return sizes_known(p.forward) ? plan_without_checks(p, true).backward_workspace_bytes : 0;
}

// [snippet:entry_points]
void forward(const ForwardParams& p, cudaStream_t stream) {
  if (const std::string problem = check_forward(p); !problem.empty())
    throw Error("selective_scan::forward: " + problem);
  const detail::CallPlan call = call_plan_without_checks(p);
  if (const std::string problem = check_plan(p, p, &call.plan); !problem.empty())
    throw Error("selective_scan::forward: " + problem);
  detail::ScanArgs args = detail::make_args(p);
  // Only version 5 keeps h, and under automatic only for version 5's backward (plan.cpp).
  if (call.plan.state_checkpoints_floats == 0) args.state_checkpoints = nullptr;
  dispatch<Forward>(p.input_type, p.flags.complex, args, call, stream);
}

void backward(const BackwardParams& p, cudaStream_t stream) {
  if (const std::string problem = check_backward(p); !problem.empty())
    throw Error("selective_scan::backward: " + problem);
  const detail::CallPlan call = call_plan_without_checks(p);
  if (const std::string problem = check_plan(p.forward, p, &call.plan); !problem.empty())
    throw Error("selective_scan::backward: " + problem);
  detail::ScanArgs args = detail::make_args(p);
  if (!call.plan.backward_reads_kept_states) args.state_checkpoints = nullptr;  // the forward kept none
  dispatch<Backward>(p.forward.input_type, p.forward.flags.complex, args, call, stream);
}
// [/snippet:entry_points]

namespace detail {

ScanArgs make_args(const ForwardParams& p) {
  ScanArgs a{};
  const Sizes& s = p.sizes;
  a.batch = s.batch, a.dim = s.dim, a.seqlen = s.seqlen, a.dstate = s.dstate;
  const bool any_variable = p.B.variable || p.C.variable;
  a.groups = any_variable ? s.groups : 1;
  a.dims_per_group = s.dim / a.groups;
  a.chunks = (s.seqlen + kChunkLength - 1) / kChunkLength;
  a.delta_softplus = p.flags.delta_softplus;
  const auto seq = [](const Input& t) { return SequenceArg{t.data, t.batch_stride, t.dim_stride}; };
  const auto out = [](const Output& t) { return MutableSequenceArg{t.data, t.batch_stride, t.dim_stride}; };
  const auto projection = [](const StateProjection<const void*>& t) {
    return ProjectionArg{t.variable, t.data, t.batch_stride, t.group_stride, t.state_stride, t.dim_stride};
  };
  a.u = seq(p.u), a.delta = seq(p.delta), a.z = seq(p.z);
  a.A = p.A, a.A_dim_stride = p.A_dim_stride;
  a.B = projection(p.B), a.C = projection(p.C);
  a.D = p.D, a.delta_bias = p.delta_bias, a.initial_state = p.initial_state;
  a.cu_seqlens = p.cu_seqlens, a.sequences = p.cu_seqlens ? p.sequences : s.batch;
  a.out = out(p.out), a.out_z = out(p.out_z);
  a.chunk_states = p.chunk_states, a.last_state = p.last_state, a.state_checkpoints = p.state_checkpoints;
  a.workspace = p.workspace;
  return a;
}

ScanArgs make_args(const BackwardParams& p) {
  ScanArgs a = make_args(p.forward);
  a.dout = {p.dout.data, p.dout.batch_stride, p.dout.dim_stride};
  const auto out = [](const Output& t) { return MutableSequenceArg{t.data, t.batch_stride, t.dim_stride}; };
  a.du = out(p.du), a.ddelta = out(p.ddelta), a.dz = out(p.dz);
  a.dA = p.dA, a.dB = p.dB, a.dC = p.dC;
  a.dD = p.dD, a.ddelta_bias = p.ddelta_bias, a.dinitial_state = p.dinitial_state;
  a.dlast_state = p.dlast_state;
  a.deterministic = p.deterministic;
  a.workspace = p.workspace;
  return a;
}

}  // namespace detail
}  // namespace selective_scan

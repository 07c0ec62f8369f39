// The one place that decides which version's kernel runs each direction of a call. An explicit
// version that cannot take a call hands it to an earlier one (the README's table); automatic asks
// automatic.cpp. The workspace sizes come from the same plan, so they match what runs.
#include "plan.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace selective_scan::detail {
namespace {

std::string version_name(Kernel k) {
  std::string name = "version ";
  return name += std::to_string(int(k));
}

Route forward_route(Kernel asked, const ScanArgs& args, bool is_complex, DataType type, bool forward_workspace) {
  switch (asked) {
    case Kernel::automatic: return automatic_forward(args, is_complex, type, forward_workspace);
    case Kernel::lanes:
      if (args.dstate > 32) return {Kernel::blocked, "version 3 takes dstate up to 32"};
      return {Kernel::lanes, ""};
    case Kernel::ring:
      if (const std::string no = ring_forward_refusal(args, is_complex); !no.empty())
        return {Kernel::registers, "version 5's forward refuses " + no};
      return {Kernel::ring, ""};
    default: return {asked, ""};
  }
}

Route backward_route(Kernel asked, const ScanArgs& args, bool is_complex, DataType type) {
  std::string why;
  switch (asked) {
    case Kernel::automatic: return automatic_backward(args, is_complex, type);
    case Kernel::naive: return {Kernel::naive, ""};
    case Kernel::lanes: return {Kernel::blocked, "version 3 has no backward of its own"};
    case Kernel::ring:
      if (why = checkpoints_backward_refusal(args, is_complex); why.empty()) return {Kernel::ring, ""};
      why = "version 5's backward refuses " + why;
      [[fallthrough]];
    case Kernel::registers:
      if (const std::string no = registers_backward_refusal(args, is_complex); !no.empty())
        return {Kernel::blocked, (why.empty() ? "" : why + "; ") + "version 4's backward refuses " + no};
      return {Kernel::registers, why};
    default: return {Kernel::blocked, ""};
  }
}

}  // namespace

int ring_segments(const ScanArgs& args, DataType type) {
  switch (type) {
    case DataType::float32: return ring_forward_segments<float>(args);
    case DataType::float16: return ring_forward_segments<__half>(args);
    case DataType::bfloat16: return ring_forward_segments<__nv_bfloat16>(args);
  }
  return 1;
}

Plan make_plan(Kernel asked, const ScanArgs& forward_args, const ScanArgs& backward_args, bool is_complex,
               DataType type, bool sizing) {
  // A version the build lacks is an error, not a hand-over: the caller asked for code it does not have.
  if (!version_built(asked)) throw Error("selective_scan: " + not_built(asked));
  Plan plan;
  plan.asked = asked;
  const bool forward_workspace = sizing || forward_args.workspace;
  const Route forward = forward_route(asked, forward_args, is_complex, type, forward_workspace);
  const Route backward = backward_route(asked, backward_args, is_complex, type);
  plan.forward = forward.body, plan.backward = backward.body;
  if (plan.forward == Kernel::ring) {
    const std::int64_t channels = forward_args.batch * forward_args.dim;
    plan.state_checkpoints_floats = channels * kept_rows(forward_args.seqlen) * forward_args.dstate;
    const int segments = ring_segments(forward_args, type);
    plan.forward_workspace_bytes = ring_forward_workspace_bytes(forward_args, segments);
    plan.forward_segments = forward_args.workspace ? segments : 1;
  }
  // Automatic keeps h only for a backward that reads it: at one state its backward is version 2's,
  // and the forward would write h for nothing, 8% of forward + backward where it was measured
  // (appendix A, "The measurements behind the library's rules"). A forward's plan sees its backward
  // as the most permissive call could (api.cpp: as_backward_sees), so where that backward is not
  // version 5's, no real one is.
  if (asked == Kernel::automatic && plan.backward != Kernel::ring) plan.state_checkpoints_floats = 0;
  // Version 5's backward reads h where version 5's forward kept it, and recomputes it otherwise.
  plan.backward_reads_kept_states =
      plan.forward == Kernel::ring && plan.backward == Kernel::ring && backward_args.state_checkpoints;
  plan.backward_workspace_bytes = workspace_bytes(backward_args, plan.backward, is_complex);
  if (plan.backward == Kernel::ring) plan.backward_segments = checkpoints_backward_segments(backward_args);
  if (asked == Kernel::automatic)
    plan.why = "forward: " + forward.why + "; backward: " + backward.why;
  else if (forward.why.empty() && backward.why.empty())
    plan.why = version_name(asked) + " takes both directions";
  else
    plan.why = forward.why.empty()    ? backward.why
               : backward.why.empty() ? forward.why
                                      : forward.why + "; " + backward.why;
  return plan;
}

}  // namespace selective_scan::detail

namespace selective_scan {

std::string Plan::summary() const {
  const auto v = [](Kernel k) {
    std::string name = "v";  // appended, not "v" + ...: GCC 12 warns (-Wrestrict) on that form
    return name += std::to_string(int(k));
  };
  std::string s = asked == Kernel::automatic ? "auto: " : "";
  s += backward == forward ? v(forward) : v(forward) + " fwd, " + v(backward) + " bwd";
  if (forward_segments > 1 || backward_segments > 1) {
    s += ", segments";
    if (forward_segments > 1) s.append(" ").append(std::to_string(forward_segments)).append(" fwd");
    if (backward_segments > 1) s.append(" ").append(std::to_string(backward_segments)).append(" bwd");
  }
  if (backward_reads_kept_states) s += ", kept h";
  return s;
}

}  // namespace selective_scan

// The one place that decides which version's kernel runs each direction of a call, and how
// version 5 launches it. An explicit version that cannot take a call hands it to an earlier one
// (the README's table); automatic asks automatic.cpp, giving it version 5's launch decisions.
// The workspace sizes come from the same plan, so they match what runs.
#include "plan.hpp"

namespace selective_scan::detail {
namespace {

std::string version_name(Kernel k) {
  std::string name = "version ";
  return name += std::to_string(int(k));
}

// Packed sequences (packed_sequences.cuh): versions 2 and 5 restart the state inside a channel
// both ways; the other versions hand them to version 2. One direction (`direction`), with
// automatic's route for it and version 5's refusal of it, each asked for only where it decides
// (the other versions never ask the device).
template <class AutomaticRoute, class Refusal>
Route packed_route(Kernel asked, AutomaticRoute automatic, Refusal refusal, const std::string& direction) {
  switch (asked) {
    case Kernel::automatic: return automatic();
    case Kernel::blocked: return {Kernel::blocked, ""};
    case Kernel::ring:
      if (const std::string no = refusal(); !no.empty())
        return {Kernel::blocked, "version 5's " + direction + " refuses " + no + "; version 2 takes packed sequences"};
      return {Kernel::ring, ""};
    default: return {Kernel::blocked, version_name(asked) + " hands packed sequences to version 2"};
  }
}
Route packed_forward_route(Kernel asked, const ScanArgs& args, bool is_complex, int ring_segments) {
  return packed_route(
      asked, [&] { return automatic_packed_forward(args, is_complex, ring_segments); },
      [&] { return ring_forward_refusal(args, is_complex); }, "forward");
}
Route packed_backward_route(Kernel asked, const ScanArgs& args, bool is_complex, const BackwardGrid& ring_grid) {
  return packed_route(
      asked, [&] { return automatic_packed_backward(args, is_complex, ring_grid); },
      [&] { return checkpoints_backward_refusal(args, is_complex); }, "backward");
}

Route forward_route(Kernel asked, const ScanArgs& args, bool is_complex, int ring_segments) {
  switch (asked) {
    case Kernel::automatic: return automatic_forward(args, is_complex, ring_segments);
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

Route backward_route(Kernel asked, const ScanArgs& args, bool is_complex, const BackwardGrid& ring_grid) {
  std::string why;
  switch (asked) {
    case Kernel::automatic: return automatic_backward(args, is_complex, ring_grid);
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

CallPlan make_plan(Kernel asked, const ScanArgs& forward_args, const ScanArgs& backward_args, bool is_complex,
                   DataType type, bool sizing) {
  // A version the build lacks is an error, not a hand-over: the caller asked for code it does not have.
  if (!version_built(asked)) throw Error("selective_scan: " + not_built(asked));
  CallPlan call;
  Plan& plan = call.plan;
  plan.asked = asked;
  // Version 5's launches, where it may run and takes the call: the rule and the launch read the
  // same ones. (Only automatic and version 5 itself may run it: the other versions never ask the
  // device about it.)
  const bool packed = forward_args.cu_seqlens != nullptr;
  if (asked == Kernel::automatic || asked == Kernel::ring) {
    if (ring_forward_refusal(forward_args, is_complex).empty())
      call.ring_forward = ring_forward_launch(forward_args, type);
    if (checkpoints_backward_refusal(backward_args, is_complex).empty())
      call.ring_backward = checkpoints_backward_grid(backward_args);
  }
  const bool forward_workspace = sizing || forward_args.workspace;
  const int ring_segments = forward_workspace ? call.ring_forward.segments : 1;
  const Route forward = packed ? packed_forward_route(asked, forward_args, is_complex, ring_segments)
                               : forward_route(asked, forward_args, is_complex, ring_segments);
  const Route backward = packed ? packed_backward_route(asked, backward_args, is_complex, call.ring_backward)
                                : backward_route(asked, backward_args, is_complex, call.ring_backward);
  plan.forward = forward.body, plan.backward = backward.body;
  if (plan.forward == Kernel::ring) {
    const std::int64_t channels = forward_args.batch * forward_args.dim;
    plan.state_checkpoints_floats = channels * kept_rows(forward_args.seqlen) * forward_args.dstate;
    const int segments = call.ring_forward.segments;
    plan.forward_workspace_bytes = ring_forward_workspace_bytes(forward_args, segments);
    plan.forward_segments = forward_args.workspace ? segments : 1;
  }
  // Automatic keeps h only for a backward that reads it: at one state its backward is version 2's,
  // and the forward would write h for nothing, 8% of forward + backward where it was measured
  // (appendix A, "The measurements behind the library's rules"). A forward's plan sees its backward
  // as the most permissive call could (api.cpp: as_backward_sees), so where that backward is not
  // version 5's, no real one is.
  if (asked == Kernel::automatic && plan.backward != Kernel::ring) plan.state_checkpoints_floats = 0;
  // Packed sequences keep no states: version 5's backward recomputes them from the chunk states.
  if (packed) plan.state_checkpoints_floats = 0;
  // Version 5's backward reads h where version 5's forward kept it, and recomputes it otherwise.
  plan.backward_reads_kept_states =
      plan.forward == Kernel::ring && plan.backward == Kernel::ring && backward_args.state_checkpoints;
  plan.backward_workspace_bytes = workspace_bytes(backward_args, plan.backward, is_complex, call.ring_backward);
  if (plan.backward == Kernel::ring) plan.backward_segments = call.ring_backward.segments;
  if (asked == Kernel::automatic)
    plan.why = "forward: " + forward.why + "; backward: " + backward.why;
  else if (forward.why.empty() && backward.why.empty())
    plan.why = version_name(asked) + " takes both directions";
  else if (forward.why == backward.why)
    plan.why = forward.why;
  else
    plan.why = forward.why.empty()    ? backward.why
               : backward.why.empty() ? forward.why
                                      : forward.why + "; " + backward.why;
  return call;
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

// plan.hpp: how a call is routed to the versions' kernels (plan.cpp), and the rule behind
// Kernel::automatic (automatic.cpp). api.cpp runs what the plan says; nothing else chooses.
#pragma once

#include "scan_args.hpp"
#include "selective_scan.hpp"

#include <string>

namespace selective_scan::detail {

// A version's body for one direction, and the reason it was chosen.
struct Route {
  Kernel body;
  std::string why;
};

// Why a version this build lacks cannot run, in one line naming the build's architectures.
std::string not_built(Kernel k);

// Kernel::automatic: the fastest body measured for the call (automatic.cpp holds the rule and
// the measurements behind it).
// forward_workspace: whether the forward has (or, for the sizes, will have) its workspace, with
// which version 5 may cut long sequences into segments.
Route automatic_forward(const ScanArgs& args, bool is_complex, DataType type, bool forward_workspace);
Route automatic_backward(const ScanArgs& args, bool is_complex, DataType type);

// The time segments version 5's forward cuts each sequence into when given a workspace.
int ring_segments(const ScanArgs& args, DataType type);

// The plan of a call: `forward_args` as the forward sees the call, `backward_args` as the
// backward does (for a forward alone: deterministic off, dout laid out like u). `sizing`: the
// plan a caller sizes its buffers by, which assumes the forward workspace will be given.
Plan make_plan(Kernel asked, const ScanArgs& forward_args, const ScanArgs& backward_args, bool is_complex,
               DataType type, bool sizing);

}  // namespace selective_scan::detail

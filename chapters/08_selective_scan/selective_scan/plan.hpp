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
// the measurements behind it), given version 5's launch decisions where it takes the call.
// ring_segments: the time segments version 5's forward would cut each sequence into (1 where it
// would not, or where the forward has, or for the sizes will have, no workspace).
Route automatic_forward(const ScanArgs& args, bool is_complex, int ring_segments);
Route automatic_backward(const ScanArgs& args, bool is_complex, const BackwardGrid& ring_grid);
// Packed sequences, each direction: version 5 where it would run the call unpacked (its work items
// fill the GPU, or it cuts the sequence into segments), else version 2.
Route automatic_packed_forward(const ScanArgs& args, bool is_complex, int ring_segments);
Route automatic_packed_backward(const ScanArgs& args, bool is_complex, const BackwardGrid& ring_grid);

// The plan of a call, and the launch decisions that go with it: made once, here, and run as
// they are by api.cpp.
struct CallPlan {
  Plan plan;
  RingLaunch ring_forward;     // where plan.forward is version 5's
  BackwardGrid ring_backward;  // where plan.backward is version 5's
};
// `forward_args`: the call as the forward sees it, `backward_args` as the backward does (for a
// forward alone: deterministic off, dout laid out like u). `sizing`: the plan a caller sizes its
// buffers by, which assumes the forward workspace will be given.
CallPlan make_plan(Kernel asked, const ScanArgs& forward_args, const ScanArgs& backward_args, bool is_complex,
                   DataType type, bool sizing);

}  // namespace selective_scan::detail

// The library's entry points: every call checked whole before anything runs, then handed to the
// version that takes it.
#include "check.hpp"
#include "overlaps.hpp"
#include "sizes_fit.hpp"
#include "ssd.hpp"
#include "v1_recurrence.hpp"
#include "v2_chunked.hpp"
#include "v3_fused.hpp"
#include "v4_warpgroup.hpp"

#include <cmath>
#include <cstdint>
#include <string>

namespace ssd {
namespace {

std::string check_sizes(const Sizes& s) {
  if (s.batch < 1 || s.seqlen < 1 || s.heads < 1 || s.head_dim < 1 || s.groups < 1 || s.dstate < 1)
    return "every size (batch, seqlen, heads, head_dim, groups, dstate) must be at least 1";
  if (s.heads % s.groups != 0)
    return "heads (" + std::to_string(s.heads) + ") must be a multiple of groups (" + std::to_string(s.groups) + ")";
  // Every tensor counted in 64-bit bytes, as fp32 (the versions' working copies are): none may wrap.
  using selective_scan::detail::product_does_not_fit;
  for (const std::string& problem :
       {product_does_not_fit("x", "batch·seqlen·heads·head_dim", {s.batch, s.seqlen, s.heads, s.head_dim}, 4, "floats"),
        product_does_not_fit("B", "batch·seqlen·groups·dstate", {s.batch, s.seqlen, s.groups, s.dstate}, 4, "floats"),
        product_does_not_fit("the states", "batch·heads·head_dim·dstate", {s.batch, s.heads, s.head_dim, s.dstate}, 4,
                             "floats")})
    if (!problem.empty()) return problem;
  return {};
}

std::string check_sequence_states(const ForwardParams& p) {
  if (!p.sequence_final_states && !p.cu_seqlens && p.sequences == 0) return {};
  if (!p.sequence_final_states || !p.cu_seqlens || !p.seq_idx)
    return "sequence_final_states needs cu_seqlens and seq_idx, and cu_seqlens is read only for it";
  if (p.sizes.batch != 1) return "sequence_final_states takes one row of packed sequences (batch 1)";
  if (p.sequences < 1 || p.sequences > p.sizes.seqlen)
    return "sequences must be in [1, seqlen] (got " + std::to_string(p.sequences) + ")";
  return selective_scan::detail::product_does_not_fit("sequence_final_states", "sequences·heads·head_dim·dstate",
                                                      {p.sequences, p.sizes.heads, p.sizes.head_dim, p.sizes.dstate}, 4,
                                                      "floats");
}

std::string check_forward(const ForwardParams& p) {
  if (std::string problem = check_sizes(p.sizes); !problem.empty()) return problem;
  if (!p.x || !p.dt || !p.A || !p.B || !p.C || !p.y) return "x, dt, A, B, C and y are required";
  if (std::isnan(p.dt_min) || std::isnan(p.dt_max) || p.dt_min > p.dt_max)
    return "dt_min must not exceed dt_max (the clamp of dt')";
  if (std::string problem = check_sequence_states(p); !problem.empty()) return problem;
  if (p.saved && p.kernel != Kernel::fused && p.kernel != Kernel::automatic)
    return "saved is version 3's: only its forward keeps what its backward reads";
  switch (p.kernel) {
    case Kernel::recurrence: return detail::recurrence_refuses(p);
    case Kernel::chunked: return detail::chunked_refuses(p);
    case Kernel::fused: return detail::fused_refuses(p);
    case Kernel::warpgroup: return detail::warpgroup_refuses(p);
    case Kernel::automatic: {
      const std::string first = detail::recurrence_refuses(p), second = detail::chunked_refuses(p);
      return first.empty() || second.empty() ? std::string() : first + "; " + second;
    }
  }
  return "no such kernel version";
}

// The version that runs the forward of a call validate() accepts: the first that takes it of
// version 3, then 1, then 2 (the recorded benchmark's order before the scratch pool: ssd/README.md).
Kernel forward_kernel(const ForwardParams& p) {
  if (p.kernel != Kernel::automatic) return p.kernel;
  if (detail::fused_refuses(p).empty()) return Kernel::fused;
  return detail::recurrence_refuses(p).empty() ? Kernel::recurrence : Kernel::chunked;
}

// A forward with `saved` must run version 3 (automatic may choose another where version 3 refuses).
std::string check_saved(const ForwardParams& p) {
  if (!p.saved) return {};
  if (reinterpret_cast<std::uintptr_t>(p.saved) % 256 != 0)
    return "saved must start on a 256-byte boundary, as cudaMalloc's memory does (its tiles are read 16 bytes a lane)";
  if (forward_kernel(p) == Kernel::fused) return {};
  return "saved is version 3's, and version 3 does not take this call: " + detail::fused_refuses(p);
}

// The version that runs the backward of a call whose forward check passed: version 3 where asked
// for, or where automatic or version 4 (no backward of its own yet) and it takes the call; else
// version 1 (version 2 has no backward of its own either), or the reason none takes it.
std::string backward_refuses(const BackwardParams& p, Kernel& kernel) {
  const ForwardParams& f = p.forward;
  if (f.kernel == Kernel::fused || f.kernel == Kernel::automatic || f.kernel == Kernel::warpgroup) {
    const std::string fused = detail::fused_backward_refuses(p);
    if (fused.empty()) return kernel = Kernel::fused, std::string();
    if (f.kernel == Kernel::fused) return "the backward: " + fused;
  }
  kernel = Kernel::recurrence;
  if (std::string problem = detail::recurrence_refuses(f); !problem.empty()) return "the backward: " + problem;
  return {};
}

std::string check_backward(const BackwardParams& p, Kernel& kernel) {
  if (std::string problem = check_forward(p.forward); !problem.empty()) return problem;
  if (std::string problem = check_saved(p.forward); !problem.empty()) return problem;
  const ForwardParams& f = p.forward;
  if (std::string problem = backward_refuses(p, kernel); !problem.empty()) return problem;
  if (f.saved && kernel != Kernel::fused) return "saved is read by version 3's backward alone, which refuses this call";
  if (!p.dy || !p.dx || !p.ddt || !p.dA || !p.dB || !p.dC) return "dy, dx, ddt, dA, dB and dC are required";
  if (f.D && !p.dD) return "dD is required when D is given";
  if (f.z && !p.dz) return "dz is required when z is given";
  if (f.dt_bias && !p.ddt_bias) return "ddt_bias is required when dt_bias is given";
  if (p.dinitial_states && !f.initial_states) return "dinitial_states needs initial_states";
  return detail::backward_overlap(p);
}

}  // namespace

const char* name_of(Kernel kernel) {
  switch (kernel) {
    case Kernel::automatic: return "automatic";
    case Kernel::recurrence: return "recurrence";
    case Kernel::chunked: return "chunked";
    case Kernel::fused: return "fused";
    case Kernel::warpgroup: return "warpgroup";
  }
  return "unknown";
}

std::string validate(const ForwardParams& p) {
  if (std::string problem = check_forward(p); !problem.empty()) return problem;
  if (std::string problem = check_saved(p); !problem.empty()) return problem;
  return detail::forward_overlap(p);
}

std::size_t saved_bytes(const ForwardParams& p) {
  if (std::string problem = validate(p); !problem.empty()) throw Error("ssd::saved_bytes: " + problem);
  return detail::fused_saved_bytes(p);
}

std::string validate(const BackwardParams& p) {
  Kernel kernel{};
  return check_backward(p, kernel);
}

Kernel kernel_of(const BackwardParams& p) {
  Kernel kernel{};
  if (std::string problem = check_backward(p, kernel); !problem.empty()) throw Error("ssd::kernel_of: " + problem);
  return kernel;
}

Kernel kernel_of(const ForwardParams& p) {
  if (std::string problem = validate(p); !problem.empty()) throw Error("ssd::kernel_of: " + problem);
  return forward_kernel(p);
}

void forward(const ForwardParams& p, cudaStream_t stream) {
  if (std::string problem = validate(p); !problem.empty()) throw Error("ssd::forward: " + problem);
  switch (forward_kernel(p)) {
    case Kernel::chunked: return detail::chunked_forward(p, stream);
    case Kernel::fused: return p.saved ? detail::fused_forward_saving(p, stream) : detail::fused_forward(p, stream);
    case Kernel::warpgroup: return detail::warpgroup_forward(p, stream);
    default: return detail::recurrence_forward(p, stream);
  }
}

void backward(const BackwardParams& p, cudaStream_t stream) {
  Kernel kernel{};
  if (std::string problem = check_backward(p, kernel); !problem.empty()) throw Error("ssd::backward: " + problem);
  if (kernel == Kernel::fused) return detail::fused_backward(p, stream);
  detail::recurrence_backward(p, stream);
}

}  // namespace ssd

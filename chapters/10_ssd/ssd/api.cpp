// The library's entry points: every call checked whole before anything runs, then handed to the
// version that takes it.
#include "check.hpp"
#include "ssd.hpp"
#include "v1_recurrence.hpp"

#include <cmath>
#include <string>

namespace ssd {
namespace {

std::string check_sizes(const Sizes& s) {
  if (s.batch < 1 || s.seqlen < 1 || s.heads < 1 || s.head_dim < 1 || s.groups < 1 || s.dstate < 1)
    return "every size (batch, seqlen, heads, head_dim, groups, dstate) must be at least 1";
  if (s.heads % s.groups != 0)
    return "heads (" + std::to_string(s.heads) + ") must be a multiple of groups (" + std::to_string(s.groups) + ")";
  return {};
}

std::string check_forward(const ForwardParams& p) {
  if (std::string problem = check_sizes(p.sizes); !problem.empty()) return problem;
  if (!p.x || !p.dt || !p.A || !p.B || !p.C || !p.y) return "x, dt, A, B, C and y are required";
  if (std::isnan(p.dt_min) || std::isnan(p.dt_max) || p.dt_min > p.dt_max)
    return "dt_min must not exceed dt_max (the clamp of dt')";
  if (p.kernel != Kernel::automatic && p.kernel != Kernel::recurrence) return "no such kernel version";
  return detail::recurrence_refuses(p);
}

}  // namespace

const char* name_of(Kernel kernel) {
  switch (kernel) {
    case Kernel::automatic: return "automatic";
    case Kernel::recurrence: return "recurrence";
  }
  return "unknown";
}

std::string validate(const ForwardParams& p) { return check_forward(p); }

std::string validate(const BackwardParams& p) {
  if (std::string problem = check_forward(p.forward); !problem.empty()) return problem;
  const ForwardParams& f = p.forward;
  if (!p.dy || !p.dx || !p.ddt || !p.dA || !p.dB || !p.dC) return "dy, dx, ddt, dA, dB and dC are required";
  if (f.D && !p.dD) return "dD is required when D is given";
  if (f.z && !p.dz) return "dz is required when z is given";
  if (f.dt_bias && !p.ddt_bias) return "ddt_bias is required when dt_bias is given";
  if (p.dinitial_states && !f.initial_states) return "dinitial_states needs initial_states";
  return {};
}

Kernel kernel_of(const ForwardParams& p) {
  if (std::string problem = validate(p); !problem.empty()) throw Error("ssd::kernel_of: " + problem);
  return Kernel::recurrence;  // the only version so far
}

void forward(const ForwardParams& p, cudaStream_t stream) {
  if (std::string problem = validate(p); !problem.empty()) throw Error("ssd::forward: " + problem);
  detail::recurrence_forward(p, stream);
}

void backward(const BackwardParams& p, cudaStream_t stream) {
  if (std::string problem = validate(p); !problem.empty()) throw Error("ssd::backward: " + problem);
  detail::recurrence_backward(p, stream);
}

}  // namespace ssd

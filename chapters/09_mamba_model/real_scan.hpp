// The selective scan in plain real fp64, for the case this model uses (one group, real A, D, the
// z gate, a delta bias with the softplus): the same numbers as chapter 08's reference, which
// carries complex numbers and every option, several times faster. The CPU training runs on it;
// the tests check it against chapter 08's reference to rounding.
#pragma once

#include "reference.hpp"  // chapter 08's Problem

#include <vector>

namespace ch09 {

struct RealScanGradients {
  std::vector<double> du, ddelta, dz;   // (batch, dim, L); ddelta is ∂L/∂delta_raw
  std::vector<double> dA, dB, dC;       // dA (dim, N); dB, dC shaped as the problem's B, C
  std::vector<double> dD, ddelta_bias;  // (dim)
};

// `p` must have groups 1, real A, has_D, has_z, has_delta_bias, delta_softplus and no initial
// state (std::invalid_argument otherwise). Returns y·silu(z).
std::vector<double> real_scan_forward(const ch08::Problem& p);
RealScanGradients real_scan_backward(const ch08::Problem& p, const std::vector<double>& dout);

}  // namespace ch09

// Mamba-2's block in fp64, forward and backward, on chapter 09's channels-first activations
// (batch, channels, L): what the Mamba-2 model puts where the Mamba block has its selective scan.
// As mamba_ssm's Mamba2 module computes it (Dao and Gu, 2024), with one group of B and C:
//   zxbcdt = in_proj · n                      its rows: z and x (d_inner each), B and C (N each), dt (heads)
//   xbc    = silu(conv1d(x, B, C) + bias)     one causal depthwise convolution over x, B and C together
//   y      = SSD(x, dt, A, B, C, D)           chapter 10's: A = −exp(A_log) and D one a head, dt' =
//                                             softplus(dt + dt_bias); x in heads of head_dim channels
//   g      = RMSNorm(y · silu(z)) · norm      the gate before the norm, over the d_inner channels
//   out    = out_proj · g
// The SSD runs in chapter 10's fp64 forms (ssd_recurrence, ssd_backward), on its time-major layout.
#pragma once

#include "mamba2_sizes.hpp"
#include "ssd_problem.hpp"  // chapter 10's

#include <cstddef>
#include <vector>

namespace ch09 {

// What the forward computed, kept for the backward and the checks.
struct Mamba2Trace {
  std::vector<double> zxbcdt;  // in_proj · n (batch, in_proj_rows, L)
  std::vector<double> conv;    // the convolution of x, B and C plus its bias, before the SiLU (batch, conv_channels, L)
  ch10::Problem ssd;           // the SSD's inputs, time-major
  std::vector<double> y;       // the SSD's output (batch, d_inner, L)
  std::vector<double> gated;   // y · silu(z)
  std::vector<double> inv_rms;  // the norm's 1/rms at each position (batch, L)
  std::vector<double> normed;   // RMSNorm(gated) · norm
  std::vector<double> out;      // out_proj · normed (batch, d_model, L)
};

// n: the block's input (batch, d_model, L). Throws std::invalid_argument on sizes that do not fit.
Mamba2Trace mamba2_forward(const Mamba2Sizes& sizes, const Mamba2Weights& w, const std::vector<double>& n,
                           std::size_t batch, std::size_t L);

// From dout = ∂L/∂out: returns ∂L/∂n and ADDS every parameter's gradient into `grad`.
std::vector<double> mamba2_backward(const Mamba2Sizes& sizes, const Mamba2Weights& w, const std::vector<double>& n,
                                    const Mamba2Trace& trace, const std::vector<double>& dout,
                                    const Mamba2WeightGradients& grad, std::size_t batch, std::size_t L);

// One token through the block, as generation runs it: n (d_model) to out (d_model), updating
// `window`, the convolution's last conv_width − 1 inputs (conv_channels, conv_width − 1; oldest
// first), and `state`, the SSD's (d_inner, d_state): what mamba2_forward gives at every position.
std::vector<double> mamba2_step(const Mamba2Sizes& sizes, const Mamba2Weights& w, const std::vector<double>& n,
                                std::vector<double>& window, std::vector<double>& state);

}  // namespace ch09

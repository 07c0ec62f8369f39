// RMSNorm at one position: the d_model channels of one (batch, time) column, gathered.
//   n_c = x_c · r · w_c,   r = 1 / sqrt(mean_c x_c² + eps)
// Mamba normalizes before each block and once before the LM head. Unlike LayerNorm it does not
// subtract the mean: only the length of the column is made about sqrt(d_model).
#pragma once

#include <span>

namespace ch09 {

constexpr double kRmsEps = 1e-5;

// Writes n (same length as x) and returns r, the backward's only saved quantity besides x.
double rms_norm_forward(std::span<const double> x, std::span<const double> weight, std::span<double> out);

// Exercise 2 (rms_norm_backward.cpp): from dout = ∂L/∂n, write dx = ∂L/∂x and ADD ∂L/∂w into
// dweight (the weight's gradient sums over every position). `inv_rms` is the forward's r.
void rms_norm_backward(std::span<const double> x, std::span<const double> weight, double inv_rms,
                       std::span<const double> dout, std::span<double> dx, std::span<double> dweight);

}  // namespace ch09

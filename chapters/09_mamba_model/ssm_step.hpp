// One token of one channel of the selective scan, as a recurrence: what inference runs.
//   h_n ← exp(δ A_n) h_n + δ B_n u        (the state, N numbers, updated in place)
//   y   = Σ_n C_n h_n + D u,   returned: y · silu(z)
// δ is the step size after the softplus (softplus(delta_raw + dt_bias)). This is chapter 01's
// RNN step with a diagonal A: the parallel scan of chapter 08 computes exactly these h for all
// steps at once; here we take them one at a time, with O(N) memory per channel.
#pragma once

#include <span>

namespace ch09 {

// Exercise 3 (ssm_step.cpp).
double ssm_step(std::span<double> h, std::span<const double> A, std::span<const double> B, std::span<const double> C,
                double delta, double D, double u, double z);

}  // namespace ch09

// The linear RNN unrolled: with f = identity and h_{-1} = 0,
//
//   h_t = Σ_{k=0..t} A^k B x_{t−k},   so   y_t = Σ_{k=0..t} K_k x_{t−k},   K_k = C A^k B
//
// (A = W, B = u, C = c). The sequence K is the SSM's convolution kernel, chapter 03's K̄.
#pragma once

#include "rnn.hpp"

#include <vector>

namespace rnn {

// Exercise 1 (linear_rnn_kernel.cpp): K_k = c · W^k u for k = 0 .. length−1, in fp64.
std::vector<double> linear_rnn_kernel(const Weights& w, int length);

// y_t = Σ_{k=0..t} K_k x_{t−k}: a causal convolution of one sequence with the kernel K
// (which must be at least as long as x).
std::vector<double> causal_convolution(const std::vector<double>& K, const std::vector<double>& x);

}  // namespace rnn

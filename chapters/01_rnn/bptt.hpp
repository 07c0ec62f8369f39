// Backpropagation through time for one sequence of the tanh RNN.
//
// The loss is ℓ = Σ_t g_t y_t for given weights g_t (= ∂ℓ/∂y_t: any loss's gradient with
// respect to the outputs looks like this locally). Its gradients with respect to the
// parameters and the initial state come from one backward sweep over time, t = L−1 .. 0 --
// the same sequential chain as the forward pass, run backwards.
#pragma once

#include "rnn.hpp"

#include <vector>

namespace rnn {

struct Gradients {
  std::vector<double> dW;          // H × H, row-major
  std::vector<double> du;          // H
  std::vector<double> dc;          // H
  std::vector<double> dh_initial;  // H: ∂ℓ/∂h_{-1}
};

// Exercise 2 (bptt.cpp): the gradients of ℓ = Σ_t g[t] · y_t for the tanh RNN run on the
// single sequence x (length L) from the state h_initial (H values).
Gradients backprop_through_time(const Weights& w, const std::vector<double>& x, const std::vector<double>& g,
                                const std::vector<double>& h_initial);

// ℓ itself (a forward pass), for checking the gradients by finite differences.
double weighted_output_sum(const Weights& w, const std::vector<double>& x, const std::vector<double>& g,
                           const std::vector<double>& h_initial);

}  // namespace rnn

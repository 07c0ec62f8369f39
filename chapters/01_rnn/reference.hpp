// CPU versions of chapter 01's RNN: the fp64 reference every kernel is checked against,
// and the tools behind the chapter's figures (state trajectories, memory decay, gradient
// norms).
#pragma once

#include "rnn.hpp"

#include <vector>

namespace rnn {

struct Result {
  std::vector<double> y;        // L × batch, time-major
  std::vector<double> h_final;  // batch × H
};

// The recurrence for every sequence, stepped together: at each t the hidden states of the
// whole batch form an H × batch matrix, and one step is a matrix product (Eigen). `Scalar`
// is double for the reference and float for the CPU benchmark baseline.
template <class Scalar>
Result run_cpu(const Weights& w, const Sequences& s, Activation f);

// The reference restricted to the first `count` sequences (to re-check a large GPU run
// without paying for the whole batch in fp64).
Result run_reference_prefix(const Weights& w, const Sequences& s, Activation f, int count);

// Every hidden state of one sequence b: (L + 1) × H, row t + 1 = h_t, row 0 = h_{-1} = 0.
std::vector<std::vector<double>> trajectory(const Weights& w, const Sequences& s, int b, Activation f,
                                            const std::vector<double>& h_initial = {});

// ‖∂h_t/∂x_0‖₂ for t = 0 .. L−1 along sequence b: how much the first input still moves
// the state t steps later. For the linear RNN this is ‖A^t B‖.
std::vector<double> input_influence(const Weights& w, const Sequences& s, int b, Activation f);
// The same derivative ∂h_t/∂x_0 (a vector of H) by central finite differences.
std::vector<double> input_influence_finite_differences(const Weights& w, const Sequences& s, int b, Activation f, int t,
                                                       double eps);
// ...and by the chain rule, for comparison.
std::vector<double> input_influence_vector(const Weights& w, const Sequences& s, int b, Activation f, int t);

// ‖∂h_t/∂h_{-1}‖₂ (the spectral norm of the Jacobian, a product of t + 1 step Jacobians
// diag(f'(a_k)) W) for t = 0 .. L−1, along sequence b started from h_initial.
std::vector<double> jacobian_norms(const Weights& w, const Sequences& s, int b, Activation f,
                                   const std::vector<double>& h_initial);

// The same Jacobian at step t, whole (H × H, row-major), by the chain rule...
std::vector<double> jacobian(const Weights& w, const Sequences& s, int b, Activation f,
                             const std::vector<double>& h_initial, int t);
// ...and by central finite differences, to check it.
std::vector<double> jacobian_finite_differences(const Weights& w, const Sequences& s, int b, Activation f,
                                                const std::vector<double>& h_initial, int t, double eps);

// Spectral radius (largest |eigenvalue|) of an H × H row-major matrix.
double spectral_radius(const std::vector<double>& matrix, int n);
// Spectral norm (largest singular value) of an H × H row-major matrix: at least the spectral
// radius, equal to it for a normal matrix. It bounds a tanh step's Jacobian, ‖diag(f′) W‖ ≤ ‖W‖.
double spectral_norm(const std::vector<double>& matrix, int n);

}  // namespace rnn

// Discretizing a dense A (n × n). The matrix exponential needs Eigen's unsupported
// MatrixFunctions module, which is slow to compile, so it lives in one file only:
// discretize_dense.cpp. The bilinear rule needs a linear solve only (bilinear.cpp,
// exercise 2).
//
//   ZOH       Ā = exp(ΔA)                    B̄ = (ΔA)⁻¹(exp(ΔA) − I) ΔB = ∫₀^Δ exp(sA) ds B
//   bilinear  Ā = (I − ΔA/2)⁻¹(I + ΔA/2)     B̄ = (I − ΔA/2)⁻¹ ΔB
//   Euler     Ā = I + ΔA                     B̄ = ΔB
//   Mamba     Ā = exp(ΔA)                    B̄ = ΔB
#pragma once

#include "ssm.hpp"

namespace zoh {

// Any of the four rules for step Δ > 0. ZOH takes B̄ from the exponential of the block
// matrix Δ[[A, B], [0, 0]], so a singular A (or a tiny Δ) needs no inverse and meets no 0/0.
DiscreteSsm discretize(const ContinuousSsm& s, double delta, Method method);

// Exercise 2: the bilinear (Tustin, trapezoidal) rule.
DiscreteSsm discretize_bilinear(const ContinuousSsm& s, double delta);

// The textbook form of ZOH's B̄, A⁻¹(exp(ΔA) − I) B, through an explicit inverse: only for an
// invertible A, and only to check the block-matrix form against it.
std::vector<double> zoh_bbar_by_inverse(const ContinuousSsm& s, double delta);

// The gain of the discrete system for a constant input, C (I − Ā)⁻¹ B̄ + D: where y_k settles
// when x_k = 1 for ever (Ā stable). The continuous system's is D − C A⁻¹ B.
double steady_state_gain(const DiscreteSsm& s);

// exp(M) of an n × n row-major matrix (Eigen: Padé approximation with scaling and squaring).
std::vector<double> matrix_exponential(const std::vector<double>& M, int n);

}  // namespace zoh

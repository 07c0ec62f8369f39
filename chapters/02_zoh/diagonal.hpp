// Discretizing a diagonal A = diag(a_1 .. a_n), one element at a time: with z = Δ a_i,
//
//   ZOH       ā = exp(z)                   b̄ = Δ φ₁(z) b,   φ₁(z) = (exp(z) − 1)/z
//   bilinear  ā = (1 + z/2)/(1 − z/2)      b̄ = Δ b/(1 − z/2)
//   Euler     ā = 1 + z                    b̄ = Δ b
//   Mamba     ā = exp(z)                   b̄ = Δ b
//
// φ₁ is written with expm1, so that a_i = 0 (a singular A) or a tiny Δ gives φ₁ = 1 instead
// of 0/0, and a small z loses no digits to the cancellation in exp(z) − 1.
#pragma once

#include "ssm.hpp"

#include <vector>

namespace zoh {

// Exercise 1: φ₁(z) = (exp(z) − 1)/z, with φ₁(0) = 1, to full double precision for every z.
double phi1(double z);

// The same formula written as it reads: (exp(z) − 1)/z. NaN at z = 0, and wrong in most
// of its digits for |z| near 1e-10. Kept for the figure that shows why phi1 exists.
double phi1_naive(double z);

struct DiagonalStep {
  std::vector<double> abar;  // n
  std::vector<double> bbar;  // n
};

DiagonalStep discretize_diagonal(const std::vector<double>& a, const std::vector<double>& b, double delta,
                                 Method method);

// The ZOH-vs-Euler gap of B̄ (Euler's B̄ = Mamba's B̄ = ΔB), relative to ZOH's:
//   g(z) = (B̄_zoh − B̄_euler)/B̄_zoh = 1 − 1/φ₁(z) = 1 − z/(exp(z) − 1) = z/2 − z²/12 + z⁴/720 − …
// Negative for z < 0 (a stable A): ΔB is then larger than ZOH's B̄, by −g ≈ Δ|a|/2.
double zoh_euler_gap(double z);

}  // namespace zoh

// A single-input, single-output state space model with a diagonal state matrix, and its
// two views: the recurrence and the convolution with the kernel K̄.
//
//   continuous:  h'(s) = A h(s) + B x(s),   y(s) = Re(C h(s))
//   discrete:    h_t = Ā h_{t−1} + B̄ x_t,   y_t = Re(C h_t),   h_{−1} = 0
//   ZOH:         Ā_n = exp(Δ A_n),   B̄_n = (exp(Δ A_n) − 1) / A_n · B_n
//   kernel:      K̄_ℓ = Re Σ_n C_n Ā_n^ℓ B̄_n,   y_t = Σ_{ℓ=0..t} K̄_ℓ x_{t−ℓ}
//
// A is diagonal and may be complex. When the complex entries come in conjugate pairs
// (with B and C conjugated alike) the imaginary parts cancel in every sum and Re() drops
// nothing; a real A is the special case of all-real entries.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

namespace conv {

using complex = std::complex<double>;

struct DiagonalSsm {
  std::vector<complex> A;  // the diagonal of A, N entries
  std::vector<complex> B;  // N
  std::vector<complex> C;  // N
};

struct Discretized {
  std::vector<complex> A_bar;  // exp(Δ A_n)
  std::vector<complex> B_bar;  // (exp(Δ A_n) − 1) / A_n · B_n
  std::vector<complex> C;
};

// Zero-order hold with step Δ (> 0), element by element.
Discretized discretize_zoh(const DiagonalSsm& ssm, double delta);

// The kernel K̄_0 .. K̄_{L−1} as a Vandermonde product: K̄ = Re (C ⊙ B̄)ᵀ V with V_{n,ℓ} = Ā_n^ℓ
// (exercise 1; the stub is exercises/ssm_kernel.cpp).
std::vector<double> ssm_kernel(const Discretized& d, int length);

// The same kernel from the definition C Ā^ℓ B̄, by repeated multiplication (for the checks).
std::vector<double> ssm_kernel_by_powers(const Discretized& d, int length);

// y_t = Re(C h_t) for t = 0 .. L−1 by running the recurrence (fp64).
std::vector<double> run_recurrence(const Discretized& d, const std::vector<double>& x);

// A random S4D-like SSM of `states` entries (an even number): conjugate pairs A = −α ± iω
// with α ∈ [decay_min, decay_max] and ω ∈ [0, max_frequency], B = 1, C ~ N(0, 1/states)
// (conjugated with A).
DiagonalSsm random_diagonal_ssm(int states, double decay_min, double decay_max, double max_frequency,
                                std::uint64_t seed);

// Inputs x ~ N(0, 1).
std::vector<double> random_signal(std::size_t count, std::uint64_t seed);

}  // namespace conv

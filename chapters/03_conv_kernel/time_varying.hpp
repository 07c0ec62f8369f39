// What goes wrong when Δ changes from step to step (as in Mamba, where Δ, B and C are
// computed from the input).
//
// With a step Δ_t per time step, h_t = Ā_t h_{t−1} + B̄_t x_t with Ā_t = exp(Δ_t A) and
// B̄_t the ZOH B̄ for Δ_t. The map x → y is still linear, y = M x, but
//
//   M_{t,s} = Re Σ_n C_n · exp(A_n (Δ_{s+1} + … + Δ_t)) · B̄_{n,s}     (t ≥ s)
//
// depends on s and t separately, not on t − s alone: M is not Toeplitz, and no single
// kernel K̄ reproduces it.
#pragma once

#include "diagonal_ssm.hpp"

#include <vector>

namespace conv {

// y_t by the recurrence with step deltas[t] at step t.
std::vector<double> run_time_varying_recurrence(const DiagonalSsm& ssm, const std::vector<double>& deltas,
                                                const std::vector<double>& x);

// The L × L matrix M above (row-major, zero above the diagonal), from the closed form.
std::vector<double> time_varying_matrix(const DiagonalSsm& ssm, const std::vector<double>& deltas);

// max over t ≥ s of |M_{t,s} − M_{t−s,0}|: zero exactly when M is Toeplitz.
double toeplitz_deviation(const std::vector<double>& M, int length);

}  // namespace conv

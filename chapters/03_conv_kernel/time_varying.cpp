#include "time_varying.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace conv {

std::vector<double> run_time_varying_recurrence(const DiagonalSsm& ssm, const std::vector<double>& deltas,
                                                const std::vector<double>& x) {
  if (deltas.size() != x.size()) throw std::invalid_argument("run_time_varying_recurrence: one Δ per step");
  std::vector<complex> h(ssm.A.size(), 0.0);
  std::vector<double> y(x.size());
  for (std::size_t t = 0; t < x.size(); ++t) {
    const Discretized d = discretize_zoh(ssm, deltas[t]);  // this step's Ā_t, B̄_t
    complex out = 0.0;
    for (std::size_t n = 0; n < h.size(); ++n) {
      h[n] = d.A_bar[n] * h[n] + d.B_bar[n] * x[t];
      out += d.C[n] * h[n];
    }
    y[t] = out.real();
  }
  return y;
}

// [snippet:time_varying_matrix]
std::vector<double> time_varying_matrix(const DiagonalSsm& ssm, const std::vector<double>& deltas) {
  const std::size_t L = deltas.size();
  std::vector<double> elapsed(L + 1, 0.0);  // elapsed[t] = Δ_0 + … + Δ_{t−1}: a prefix sum
  for (std::size_t t = 0; t < L; ++t) elapsed[t + 1] = elapsed[t] + deltas[t];
  std::vector<double> M(L * L, 0.0);
  for (std::size_t s = 0; s < L; ++s) {
    const Discretized at_s = discretize_zoh(ssm, deltas[s]);  // B̄ of the step that reads x_s
    for (std::size_t t = s; t < L; ++t) {
      const double gap = elapsed[t + 1] - elapsed[s + 1];  // Δ_{s+1} + … + Δ_t
      complex sum = 0.0;
      for (std::size_t n = 0; n < ssm.A.size(); ++n) sum += ssm.C[n] * std::exp(ssm.A[n] * gap) * at_s.B_bar[n];
      M[t * L + s] = sum.real();
    }
  }
  return M;
}
// [/snippet:time_varying_matrix]

double toeplitz_deviation(const std::vector<double>& M, int length) {
  const std::size_t L = std::size_t(length);
  double worst = 0;
  for (std::size_t s = 0; s < L; ++s)
    for (std::size_t t = s; t < L; ++t) worst = std::max(worst, std::abs(M[t * L + s] - M[(t - s) * L]));
  return worst;
}

}  // namespace conv

// Exercise 1's solution (the stub is exercises/ssm_kernel.cpp).
#include "diagonal_ssm.hpp"

namespace conv {

// [snippet:ssm_kernel]
std::vector<double> ssm_kernel(const Discretized& d, int length) {
  // Ā_n = exp(Δ A_n), so Ā_n^ℓ = exp(ℓ · log Ā_n): one exponential per entry of the
  // Vandermonde matrix, with no rounding error carried from one power to the next.
  std::vector<double> K(length, 0.0);
  for (std::size_t n = 0; n < d.A_bar.size(); ++n) {
    const complex weight = d.C[n] * d.B_bar[n];
    const complex log_a = std::log(d.A_bar[n]);
    for (int l = 0; l < length; ++l) K[l] += (weight * std::exp(double(l) * log_a)).real();
  }
  return K;
}
// [/snippet:ssm_kernel]

}  // namespace conv

// Exercise 1's solution (the stub is exercises/ssm_kernel.cpp).
#include "diagonal_ssm.hpp"

#include "vandermonde.hpp"

namespace conv {

// [snippet:ssm_kernel]
std::vector<double> ssm_kernel(const Discretized& d, int length) {
  // Ā_n = exp(Δ A_n), so Ā_n^ℓ = exp(ℓ · log Ā_n): the Vandermonde product with weights
  // W_n = C_n B̄_n and exponents log Ā_n (common/vandermonde.hpp, which chapter 04 uses too).
  std::vector<complex> weights, exponents;
  for (std::size_t n = 0; n < d.A_bar.size(); ++n) {
    weights.push_back(d.C[n] * d.B_bar[n]);
    exponents.push_back(std::log(d.A_bar[n]));
  }
  return common::vandermonde_kernel(weights, exponents, length);
}
// [/snippet:ssm_kernel]

}  // namespace conv

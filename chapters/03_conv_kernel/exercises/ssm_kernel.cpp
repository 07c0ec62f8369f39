// Exercise 1: the SSM convolution kernel K̄ of a diagonal SSM, as a Vandermonde product.
//
// Return K with K[ℓ] = Re Σ_n C_n · Ā_n^ℓ · B̄_n for ℓ = 0 .. length−1 (fp64), where
// Ā = d.A_bar, B̄ = d.B_bar and C = d.C are the N diagonal entries (std::complex<double>).
// The matrix V_{n,ℓ} = Ā_n^ℓ is a Vandermonde matrix, and K = Re (C ⊙ B̄)ᵀ V. Hint: compute
// Ā_n^ℓ as exp(ℓ · log Ā_n) rather than by ℓ multiplications, so that no rounding error
// accumulates along ℓ.
// Test it with:  scripts/exercise ch03_conv_kernel 1
#include "diagonal_ssm.hpp"

namespace conv {

// [snippet:stub]
std::vector<double> ssm_kernel(const Discretized& d, int length) {
  std::vector<double> K(length, 0.0);
  // TODO(exercise): fill K.
  (void)d;
  return K;
}
// [/snippet:stub]

}  // namespace conv

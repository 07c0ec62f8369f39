// The convolution kernel of a diagonal SSM as a Vandermonde product (chapters 03 and 04):
//
//   K_ℓ = scale · Re Σ_n W_n e^{ℓ z_n},   ℓ = 0 .. length − 1,
//
// with W_n = C_n B̄_n and e^{z_n} = Ā_n (z_n = Δ A_n, or log Ā_n). Every power Ā_n^ℓ is one
// exponential e^{ℓ z_n}, so no rounding error is carried from one power to the next. scale is
// 2 where each mode stands for a conjugate pair. fp64, on the CPU: the reference the GPU
// versions are checked against.
#pragma once

#include <complex>
#include <span>
#include <stdexcept>
#include <vector>

namespace common {

// [snippet:vandermonde_kernel]
inline std::vector<double> vandermonde_kernel(std::span<const std::complex<double>> weights,
                                              std::span<const std::complex<double>> exponents, int length,
                                              double scale = 1) {
  if (weights.size() != exponents.size() || length < 0)
    throw std::invalid_argument("vandermonde_kernel: one weight per exponent, and a length of at least 0");
  std::vector<double> K(length);
  for (int l = 0; l < length; ++l) {
    std::complex<double> sum = 0;
    for (std::size_t n = 0; n < weights.size(); ++n) sum += weights[n] * std::exp(double(l) * exponents[n]);
    K[l] = scale * sum.real();
  }
  return K;
}
// [/snippet:vandermonde_kernel]

}  // namespace common

// Exercise 2's solution (the stub is exercises/toeplitz_backward.cpp).
#include "toeplitz.hpp"

#include <stdexcept>

namespace conv {

// [snippet:causal_backward]
ToeplitzGradients causal_toeplitz_backward(const std::vector<double>& t, const std::vector<double>& x,
                                           const std::vector<double>& g) {
  if (t.size() != x.size() || g.size() != x.size())
    throw std::invalid_argument("causal_toeplitz_backward: t, x and g must all have n values");
  const std::size_t n = x.size();
  ToeplitzGradients grad{std::vector<double>(n, 0.0), std::vector<double>(n, 0.0)};
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t j = 0; j + k < n; ++j) {
      grad.dt[k] += g[j + k] * x[j];  // ∂ℓ/∂t_k = Σ_j g_{j+k} x_j
      grad.dx[k] += g[k + j] * t[j];  // ∂ℓ/∂x_k = Σ_{i ≥ k} g_i t_{i−k}, with i = k + j
    }
  return grad;
}
// [/snippet:causal_backward]

}  // namespace conv

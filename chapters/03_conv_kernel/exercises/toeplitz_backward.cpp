// Exercise 2: the backward pass of the causal Toeplitz product o_i = Σ_{j ≤ i} t_{i−j} x_j.
//
// Given g = ∂ℓ/∂o (n values), return
//   dt[k] = ∂ℓ/∂t_k = Σ_i g_i ∂o_i/∂t_k   for k = 0 .. n−1
//   dx[j] = ∂ℓ/∂x_j = Σ_i g_i ∂o_i/∂x_j   for j = 0 .. n−1
// Work out which (i, j) pairs each t_k appears in, and which outputs each x_j reaches. Both
// sums are Toeplitz products themselves; the README derives them.
// Test it with:  scripts/exercise ch03_conv_kernel 2
#include "toeplitz.hpp"

#include <stdexcept>

namespace conv {

// [snippet:stub]
ToeplitzGradients causal_toeplitz_backward(const std::vector<double>& t, const std::vector<double>& x,
                                           const std::vector<double>& g) {
  if (t.size() != x.size() || g.size() != x.size())
    throw std::invalid_argument("causal_toeplitz_backward: t, x and g must all have n values");
  ToeplitzGradients grad{std::vector<double>(x.size(), 0.0), std::vector<double>(x.size(), 0.0)};
  // TODO(exercise): fill grad.dt and grad.dx.
  return grad;
}
// [/snippet:stub]

}  // namespace conv

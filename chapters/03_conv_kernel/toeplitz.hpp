// Toeplitz matrix-vector products, forward and backward, in fp64.
//
// A Toeplitz matrix is constant along each diagonal: T_{ij} = t_{i−j}. Multiplying by it is
// a convolution, and the SSM's y = K̄ ∗ x is the causal case.
//
//   causal      o_i = Σ_{j ≤ i} t_{i−j} x_j        t = (t_0 .. t_{n−1}),          n values
//   non-causal  o_i = Σ_{j}     t_{i−j} x_j        t = (t_{−(n−1)} .. t_{n−1}),  2n − 1 values,
//                                                  t_k stored at index k + n − 1
//
// Backward, for a loss ℓ with g = ∂ℓ/∂o given:
//   ∂ℓ/∂x_j = Σ_i g_i t_{i−j}    (x's gradient is Tᵀ g: the product with the transpose)
//   ∂ℓ/∂t_k = Σ_j g_{j+k} x_j    (every pair (i, j) with i − j = k)
// with the sums over the indices that exist (0 ≤ i, j < n; and i ≥ j when causal).
#pragma once

#include <cstddef>
#include <vector>

namespace conv {

struct ToeplitzGradients {
  std::vector<double> dt;  // ∂ℓ/∂t, the same layout as t
  std::vector<double> dx;  // ∂ℓ/∂x
};

// o_i = Σ_{j ≤ i} t_{i−j} x_j; t and x have the same length n.
std::vector<double> causal_toeplitz(const std::vector<double>& t, const std::vector<double>& x);

// Exercise 2 (toeplitz_backward.cpp): the gradients of the causal product for g = ∂ℓ/∂o.
ToeplitzGradients causal_toeplitz_backward(const std::vector<double>& t, const std::vector<double>& x,
                                           const std::vector<double>& g);

// o_i = Σ_j t_{i−j} x_j; t has 2n − 1 entries (see above), x has n.
std::vector<double> noncausal_toeplitz(const std::vector<double>& t, const std::vector<double>& x);
ToeplitzGradients noncausal_toeplitz_backward(const std::vector<double>& t, const std::vector<double>& x,
                                              const std::vector<double>& g);

// The n × n matrix T itself, row-major (for the checks): causal from n values of t,
// non-causal from 2n − 1.
std::vector<double> causal_toeplitz_matrix(const std::vector<double>& t);
std::vector<double> noncausal_toeplitz_matrix(const std::vector<double>& t);

// The batched causal product the GPU kernels compute: t is channels × n (one kernel per
// channel), x and o are batch × channels × n, all row-major.
std::vector<double> causal_toeplitz_batched(const std::vector<double>& t, const std::vector<double>& x, int batch,
                                            int channels, int n);

// Σ_i g_i o_i: the loss whose gradient the backward functions compute (g fixed).
double weighted_sum(const std::vector<double>& g, const std::vector<double>& o);

}  // namespace conv

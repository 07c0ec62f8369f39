#include "toeplitz.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace conv {
namespace {

void require(bool ok, const char* what) {
  if (!ok) throw std::invalid_argument(what);
}

}  // namespace

// [snippet:causal_forward]
std::vector<double> causal_toeplitz(const std::vector<double>& t, const std::vector<double>& x) {
  require(t.size() == x.size(), "causal_toeplitz: t and x must both have n values");
  const std::size_t n = x.size();
  std::vector<double> o(n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j <= i; ++j) o[i] += t[i - j] * x[j];
  return o;
}
// [/snippet:causal_forward]

// [snippet:noncausal]
std::vector<double> noncausal_toeplitz(const std::vector<double>& t, const std::vector<double>& x) {
  const long n = static_cast<long>(x.size());
  require(t.size() + 1 == 2 * x.size(), "noncausal_toeplitz: t must have 2n − 1 values");
  std::vector<double> o(n, 0.0);
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) o[i] += t[i - j + n - 1] * x[j];  // t_{i−j}
  return o;
}

ToeplitzGradients noncausal_toeplitz_backward(const std::vector<double>& t, const std::vector<double>& x,
                                              const std::vector<double>& g) {
  const long n = static_cast<long>(x.size());
  require(t.size() + 1 == 2 * x.size() && g.size() == x.size(), "noncausal_toeplitz_backward: sizes");
  ToeplitzGradients grad{std::vector<double>(t.size(), 0.0), std::vector<double>(n, 0.0)};
  for (long k = -(n - 1); k <= n - 1; ++k)  // ∂ℓ/∂t_k = Σ_j g_{j+k} x_j over 0 ≤ j, j + k < n
    for (long j = std::max(0L, -k); j < std::min(n, n - k); ++j) grad.dt[k + n - 1] += g[j + k] * x[j];
  for (long j = 0; j < n; ++j)  // ∂ℓ/∂x_j = Σ_i g_i t_{i−j}
    for (long i = 0; i < n; ++i) grad.dx[j] += g[i] * t[i - j + n - 1];
  return grad;
}
// [/snippet:noncausal]

std::vector<double> causal_toeplitz_matrix(const std::vector<double>& t) {
  const std::size_t n = t.size();
  std::vector<double> T(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j <= i; ++j) T[i * n + j] = t[i - j];
  return T;
}

std::vector<double> noncausal_toeplitz_matrix(const std::vector<double>& t) {
  require(t.size() % 2 == 1, "noncausal_toeplitz_matrix: t must have 2n − 1 values");
  const long n = static_cast<long>(t.size() + 1) / 2;
  std::vector<double> T(std::size_t(n * n));
  for (long i = 0; i < n; ++i)
    for (long j = 0; j < n; ++j) T[std::size_t(i * n + j)] = t[i - j + n - 1];
  return T;
}

std::vector<double> causal_toeplitz_batched(const std::vector<double>& t, const std::vector<double>& x, int batch,
                                            int channels, int n) {
  const std::size_t row = std::size_t(n);
  require(t.size() == std::size_t(channels) * row && x.size() == std::size_t(batch) * channels * row,
          "causal_toeplitz_batched: t must be channels × n and x batch × channels × n");
  std::vector<double> o(x.size(), 0.0);
  for (int b = 0; b < batch; ++b)
    for (int c = 0; c < channels; ++c) {
      const double* tc = t.data() + c * row;
      const double* xr = x.data() + (std::size_t(b) * channels + c) * row;
      double* orow = o.data() + (std::size_t(b) * channels + c) * row;
      for (std::size_t i = 0; i < row; ++i) {
        double sum = 0;
        for (std::size_t j = 0; j <= i; ++j) sum += tc[i - j] * xr[j];
        orow[i] = sum;
      }
    }
  return o;
}

double weighted_sum(const std::vector<double>& g, const std::vector<double>& o) {
  require(g.size() == o.size(), "weighted_sum: sizes differ");
  double sum = 0;
  for (std::size_t i = 0; i < g.size(); ++i) sum += g[i] * o[i];
  return sum;
}

}  // namespace conv

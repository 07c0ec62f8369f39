#include "legendre.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace hippo {

std::vector<double> legendre_values(int count, double x) {
  std::vector<double> p(std::max(count, 0));
  for (int n = 0; n < count; ++n)
    p[n] = n == 0 ? 1.0 : n == 1 ? x : ((2 * n - 1) * x * p[n - 1] - (n - 1) * p[n - 2]) / n;
  return p;
}

std::vector<double> legendre_integrals(int count, double x) {
  // ∫_{-1}^{x} P_0 = x + 1; for n ≥ 1, ∫_{-1}^{x} P_n = (P_{n+1}(x) − P_{n−1}(x)) / (2n + 1),
  // because P_{n±1}(−1) = (−1)^{n±1} cancel.
  const auto p = legendre_values(count + 1, x);
  std::vector<double> integral(std::max(count, 0));
  for (int n = 0; n < count; ++n) integral[n] = n == 0 ? x + 1 : (p[n + 1] - p[n - 1]) / (2 * n + 1);
  return integral;
}

Quadrature gauss_legendre(int points) {
  if (points < 1) throw std::invalid_argument("gauss_legendre: at least one point");
  Quadrature q{std::vector<double>(points), std::vector<double>(points)};
  for (int i = 0; i < points; ++i) {
    // Newton from the classic estimate of the i-th root of P_points.
    double x = std::cos(std::numbers::pi * (i + 0.75) / (points + 0.5));
    double derivative = 0;
    for (int iteration = 0; iteration < 100; ++iteration) {
      const auto p = legendre_values(points + 1, x);
      derivative = points * (x * p[points] - p[points - 1]) / (x * x - 1);
      const double step = p[points] / derivative;
      x -= step;
      if (std::abs(step) < 1e-16) break;
    }
    const auto p = legendre_values(points + 1, x);
    derivative = points * (x * p[points] - p[points - 1]) / (x * x - 1);
    q.nodes[i] = x;
    q.weights[i] = 2 / ((1 - x * x) * derivative * derivative);
  }
  return q;
}

}  // namespace hippo

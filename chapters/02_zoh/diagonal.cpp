#include "diagonal.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace zoh {

double phi1_naive(double z) { return (std::exp(z) - 1.0) / z; }

// [snippet:diagonal]
DiagonalStep discretize_diagonal(const std::vector<double>& a, const std::vector<double>& b, double delta,
                                 Method method) {
  if (a.size() != b.size()) throw std::invalid_argument("discretize_diagonal: a and b differ in length");
  if (!(delta > 0) || !std::isfinite(delta)) throw std::invalid_argument("discretize_diagonal: Δ must be positive");
  DiagonalStep out{std::vector<double>(a.size()), std::vector<double>(a.size())};
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double z = delta * a[i];
    switch (method) {
      case Method::zoh:
        out.abar[i] = std::exp(z);
        out.bbar[i] = delta * phi1(z) * b[i];
        break;
      case Method::bilinear:
        out.abar[i] = (1 + z / 2) / (1 - z / 2);
        out.bbar[i] = delta * b[i] / (1 - z / 2);
        break;
      case Method::euler:
        out.abar[i] = 1 + z;
        out.bbar[i] = delta * b[i];
        break;
      case Method::mamba:
        out.abar[i] = std::exp(z);
        out.bbar[i] = delta * b[i];
        break;
    }
  }
  return out;
}
// [/snippet:diagonal]

// [snippet:gap]
double zoh_euler_gap(double z) {
  // 1 − z/(exp(z) − 1) cancels for small z, losing about 2⁻⁵³/|g| relative (2e-14 at
  // |z| = 0.01). Below that the Bernoulli series (z/(exp(z) − 1) = Σ B_k z^k/k!) is exact to
  // rounding: the first term left out, z⁶/30240, is below 1e-16·|g|.
  if (std::abs(z) < 1e-2) {
    const double z2 = z * z;
    return z / 2 - z2 / 12 + z2 * z2 / 720;
  }
  return 1.0 - z / std::expm1(z);
}
// [/snippet:gap]

}  // namespace zoh

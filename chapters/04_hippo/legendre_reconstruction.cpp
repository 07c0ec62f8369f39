// Exercise 1's solution: a signal back from its Legendre coefficients (legendre.hpp).
#include "legendre.hpp"

#include <cmath>

namespace hippo {

// [snippet:reconstruct]
double legendre_reconstruct(std::span<const double> c, double x) {
  double value = 0, p_previous = 0, p = 1;  // P_{n−1}(x) and P_n(x), starting at n = 0
  for (std::size_t n = 0; n < c.size(); ++n) {
    value += c[n] * std::sqrt(2.0 * n + 1) * p;
    const double p_next = ((2.0 * n + 1) * x * p - n * p_previous) / (n + 1.0);
    p_previous = p;
    p = p_next;
  }
  return value;
}
// [/snippet:reconstruct]

}  // namespace hippo

// Exercise 1: φ₁(z) = (exp(z) − 1)/z, the factor in ZOH's b̄ = Δ φ₁(Δa) b.
//
// Return φ₁(z) to full double precision for every real z, including
//   z = 0          (a singular A: the limit is 1; the formula as written gives 0/0 = NaN)
//   |z| ~ 1e-12    (a tiny step: exp(z) − 1 cancels and loses most of its digits)
//   z = −800       (exp underflows: φ₁ → −1/z)
// Hint: the C++ standard library has a function for exp(z) − 1 that does not cancel.
// Test it with:  scripts/exercise ch02_zoh 1
#include "diagonal.hpp"

#include <cmath>

namespace zoh {

// [snippet:stub]
double phi1(double z) {
  // TODO(exercise): return (exp(z) − 1)/z, accurately, with φ₁(0) = 1.
  return (std::exp(z) - 1.0) / z;
}
// [/snippet:stub]

}  // namespace zoh

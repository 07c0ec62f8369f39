// Exercise 1's solution: φ₁(z) = (exp(z) − 1)/z without 0/0 and without cancellation.
#include "diagonal.hpp"

#include <cmath>

namespace zoh {

// [snippet:phi1]
double phi1(double z) {
  // expm1(z) = exp(z) − 1 computed without forming exp(z) first, so it keeps every digit
  // for small z; φ₁ is continuous at 0 with φ₁(0) = 1.
  return z == 0.0 ? 1.0 : std::expm1(z) / z;
}
// [/snippet:phi1]

}  // namespace zoh

// Exercise 1: the signal that HiPPO's coefficients stand for.
//
// Return  Σ_n c[n] · √(2n + 1) · P_n(x)  for x in [−1, 1], where P_n is the Legendre
// polynomial of degree n. Do not call legendre_values (that allocates for every x): walk the
// three-term recurrence  P_0 = 1,  P_1 = x,  (n + 1) P_{n+1} = (2n + 1) x P_n − n P_{n−1}
// alongside the sum, keeping only the last two polynomials. c may be empty (the sum is 0).
// Test it with:  scripts/exercise ch04_hippo 1
#include "legendre.hpp"

namespace hippo {

// [snippet:stub]
double legendre_reconstruct(std::span<const double> c, double x) {
  // TODO(exercise): return the sum.
  (void)c, (void)x;
  return 0.0;
}
// [/snippet:stub]

}  // namespace hippo

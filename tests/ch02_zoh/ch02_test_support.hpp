// Small helpers shared by chapter 02's tests.
#pragma once

#include "check_close.hpp"
#include "compare.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

// φ₁(z) = (e^z − 1)/z in 80-bit long double: a reference for the double versions.
inline double phi1_long_double(double z) {
  return z == 0 ? 1.0 : static_cast<double>(std::expm1(static_cast<long double>(z)) / z);
}

// g(z) = 1 − z/(e^z − 1) = (φ₁ − 1)/φ₁ in long double, with φ₁ − 1 = Σ_{k≥1} z^k/(k+1)! summed
// term by term for |z| ≤ 1 (no cancellation in forming φ₁ − 1), and directly beyond.
inline double gap_long_double(double z) {
  const long double zl = z;
  if (std::abs(z) > 1) return static_cast<double>(1.0L - zl / std::expm1(zl));
  long double term = 1, phi1_minus_one = 0;
  for (int k = 1; k <= 30; ++k) {
    term *= zl / (k + 1);
    phi1_minus_one += term;
  }
  return static_cast<double>(phi1_minus_one / (1 + phi1_minus_one));
}

// φ₁(z) = (e^z − 1)/z for complex z: zero-order hold's B̄ = Δ·φ₁(ΔA)·B (chapters 03 and 04).
//
// Chapter 02 shows why it is not computed as written: e^z rounds to 1 + z + ..., and
// subtracting 1 cancels the leading digits, so at |z| = 1e-4 the direct form has lost about
// four of fp64's sixteen digits, at 1e-8 about eight, and at z = 0 it is 0/0. expm1 forms
// e^z − 1 without the subtraction. The standard library has no complex expm1; for z = x + iy,
//   e^z − 1 = (e^x cos y − 1) + i e^x sin y,   e^x cos y − 1 = expm1(x) cos y − 2 sin²(y/2),
// and every term on the right is computed to full relative precision.
#pragma once

#include <cmath>
#include <complex>

namespace common {

inline std::complex<double> expm1(std::complex<double> z) {
  const double x = z.real(), y = z.imag();
  const double half_angle_sine = std::sin(y / 2);
  return {std::expm1(x) * std::cos(y) - 2 * half_angle_sine * half_angle_sine, std::exp(x) * std::sin(y)};
}

// φ₁(0) = 1, the limit.
inline std::complex<double> phi1(std::complex<double> z) { return z == 0.0 ? 1.0 : expm1(z) / z; }

}  // namespace common

// common::phi1, (e^z − 1)/z for complex z, against a long-double reference: the Taylor series
// Σ z^k/(k+1)! for |z| ≤ 1 (no cancellation: its terms fall fast) and the direct form beyond
// (|e^z − 1| is then not small, unless z is near a multiple of 2πi, which no case here is).
#include <catch2/catch.hpp>

#include "phi1.hpp"

#include <algorithm>
#include <cmath>
#include <complex>

namespace {

using complex = std::complex<double>;
using complex_ld = std::complex<long double>;

complex phi1_reference(complex z) {
  const complex_ld zl(z.real(), z.imag());
  if (std::abs(zl) > 1) return complex((std::exp(zl) - 1.0L) / zl);
  complex_ld term = 1, sum = 0;
  for (int k = 0; k < 40; ++k) {
    sum += term;
    term *= zl / static_cast<long double>(k + 2);  // z^(k+1)/(k+2)!
  }
  return complex(sum);
}

double relative_error(complex got, complex expected) { return std::abs(got - expected) / std::abs(expected); }

}  // namespace

TEST_CASE("phi1 keeps full precision at |z| = 1e-4, 1e-8 and 0, where (e^z − 1)/z cancels") {
  CHECK(common::phi1(complex(0, 0)) == complex(1, 0));
  for (double r : {1e-4, 1e-8}) {
    for (complex direction : {complex(-1, 0), complex(1, 0), complex(0, 1), complex(-0.6, 0.8), complex(0.6, -0.8)}) {
      const complex z = r * direction;
      INFO("z = " << z);
      CHECK(relative_error(common::phi1(z), phi1_reference(z)) < 1e-15);
    }
  }
}

TEST_CASE("the direct form (e^z − 1)/z has lost about four digits at |z| = 1e-4: the reason phi1 exists") {
  double worst_direct = 0, worst_phi1 = 0;
  for (complex direction : {complex(-1, 0), complex(1, 0), complex(0, 1), complex(-0.6, 0.8), complex(0.6, -0.8)}) {
    const complex z = 1e-4 * direction;
    worst_direct = std::max(worst_direct, relative_error((std::exp(z) - 1.0) / z, phi1_reference(z)));
    worst_phi1 = std::max(worst_phi1, relative_error(common::phi1(z), phi1_reference(z)));
  }
  INFO("worst relative error: direct " << worst_direct << ", phi1 " << worst_phi1);
  CHECK(worst_direct > 1e-14);
  CHECK(worst_phi1 < worst_direct / 100);
}

TEST_CASE("phi1 matches the definition for large |z|") {
  for (complex z :
       {complex(-50, 0), complex(-0.5, 30), complex(-3, -4), complex(2, 1), complex(0, 100), complex(-700, 5)}) {
    INFO("z = " << z);
    CHECK(relative_error(common::phi1(z), phi1_reference(z)) < 1e-15);
  }
}

// Legendre polynomials: the basis in which HiPPO keeps its memory.
//
// P_0 = 1, P_1 = x, (n + 1) P_{n+1} = (2n + 1) x P_n − n P_{n−1}, orthogonal on [−1, 1] with
// ∫ P_n P_m dx = 2 δ_nm / (2n + 1). Scaled by √(2n + 1) they are orthonormal under the
// uniform probability measure dx / 2, which is how HiPPO's coefficients are defined.
#pragma once

#include <span>
#include <vector>

namespace hippo {

// P_0(x) .. P_{count−1}(x), by the three-term recurrence.
std::vector<double> legendre_values(int count, double x);

// ∫_{-1}^{x} P_n(s) ds for n = 0 .. count−1, from (2n + 1) P_n = P'_{n+1} − P'_{n−1}.
std::vector<double> legendre_integrals(int count, double x);

// The function that the coefficients c_0 .. c_{N−1} stand for, at x ∈ [−1, 1]:
//   Σ_n c_n √(2n + 1) P_n(x).
// Exercise 1 (exercises/legendre_reconstruction.cpp).
double legendre_reconstruct(std::span<const double> c, double x);

// Gauss–Legendre nodes and weights on [−1, 1]: exact for polynomials of degree < 2·points.
struct Quadrature {
  std::vector<double> nodes;
  std::vector<double> weights;
};
Quadrature gauss_legendre(int points);

}  // namespace hippo

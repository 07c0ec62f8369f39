// Exercise 2: the bilinear (Tustin, trapezoidal) rule for a dense A.
//
// The trapezoidal rule averages the derivative at both ends of the step:
//     h_k = h_{k-1} + Δ/2 · (A h_{k-1} + A h_k) + Δ B x_k
// Collect h_k on the left and return
//     Ā = (I − ΔA/2)⁻¹ (I + ΔA/2),   B̄ = (I − ΔA/2)⁻¹ ΔB,   C and D unchanged.
// dense_matrix.hpp converts between the row-major vectors and Eigen (matrix_of, vector_of,
// to_row_major, to_std); solve with Eigen::PartialPivLU rather than forming an inverse.
// Test it with:  scripts/exercise ch02_zoh 2
#include "discretize.hpp"

#include "dense_matrix.hpp"

namespace zoh {

// [snippet:stub]
DiscreteSsm discretize_bilinear(const ContinuousSsm& s, double delta) {
  check_shapes(s, delta);
  // TODO(exercise): compute Ā and B̄.
  return {s.n, std::vector<double>(s.A.size(), 0.0), std::vector<double>(s.B.size(), 0.0), s.C, s.D};
}
// [/snippet:stub]

}  // namespace zoh

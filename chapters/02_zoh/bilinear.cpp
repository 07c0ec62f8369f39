// Exercise 2's solution: the bilinear (Tustin) rule for a dense A.
#include "discretize.hpp"

#include "dense_matrix.hpp"

namespace zoh {

// [snippet:bilinear]
DiscreteSsm discretize_bilinear(const ContinuousSsm& s, double delta) {
  check_shapes(s, delta);
  const Matrix A = matrix_of(s.A, s.n);
  const Matrix I = Matrix::Identity(s.n, s.n);
  // (I − ΔA/2) h_k = (I + ΔA/2) h_{k-1} + ΔB x_k: solve with the left side instead of
  // forming its inverse.
  const Eigen::PartialPivLU<Matrix> left(I - 0.5 * delta * A);
  const Matrix Abar = left.solve(I + 0.5 * delta * A);
  const Vector Bbar = left.solve(delta * vector_of(s.B));
  return {s.n, to_row_major(Abar), to_std(Bbar), s.C, s.D};
}
// [/snippet:bilinear]

}  // namespace zoh

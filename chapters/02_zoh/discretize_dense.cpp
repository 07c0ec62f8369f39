// The one file that includes Eigen's MatrixFunctions (its exp() costs seconds of compile
// time): every dense discretization except the bilinear one, which needs no exponential.
#include "discretize.hpp"

#include "dense_matrix.hpp"

#include <unsupported/Eigen/MatrixFunctions>

#include <stdexcept>
#include <string>

namespace zoh {
namespace {

// [snippet:zoh_block]
// exp(Δ [[A, B], [0, 0]]) = [[exp(ΔA), ∫₀^Δ exp(sA) ds B], [0, 1]]: the top-right column is
// ZOH's B̄, and no inverse of A (or of ΔA) appears anywhere.
DiscreteSsm zoh_by_block_exponential(const ContinuousSsm& s, double delta) {
  const int n = s.n;
  Matrix M = Matrix::Zero(n + 1, n + 1);
  M.topLeftCorner(n, n) = delta * matrix_of(s.A, n);
  M.topRightCorner(n, 1) = delta * vector_of(s.B);
  const Matrix E = M.exp();
  return {n, to_row_major(E.topLeftCorner(n, n)), to_std(E.topRightCorner(n, 1)), s.C, s.D};
}
// [/snippet:zoh_block]

}  // namespace

std::vector<double> matrix_exponential(const std::vector<double>& M, int n) {
  if (M.size() != std::size_t(n) * n) throw std::invalid_argument("matrix_exponential: M is not n × n");
  return to_row_major(matrix_of(M, n).exp());
}

std::vector<double> zoh_bbar_by_inverse(const ContinuousSsm& s, double delta) {
  const Matrix A = matrix_of(s.A, s.n);
  const Eigen::FullPivLU<Matrix> lu(A);
  if (!lu.isInvertible()) throw std::invalid_argument("zoh_bbar_by_inverse: A is singular");
  const Matrix E = (delta * A).exp();
  return to_std(lu.solve((E - Matrix::Identity(s.n, s.n)) * vector_of(s.B)));
}

double steady_state_gain(const DiscreteSsm& s) {
  const Matrix I = Matrix::Identity(s.n, s.n);
  return vector_of(s.C).dot((I - matrix_of(s.Abar, s.n)).partialPivLu().solve(vector_of(s.Bbar))) + s.D;
}

DiscreteSsm discretize(const ContinuousSsm& s, double delta, Method method) {
  check_shapes(s, delta);
  const Matrix A = matrix_of(s.A, s.n);
  const Vector B = vector_of(s.B);
  switch (method) {
    case Method::zoh: return zoh_by_block_exponential(s, delta);
    case Method::bilinear: return discretize_bilinear(s, delta);
    case Method::euler: return {s.n, to_row_major(Matrix::Identity(s.n, s.n) + delta * A), to_std(delta * B), s.C, s.D};
    case Method::mamba: return {s.n, to_row_major((delta * A).exp()), to_std(delta * B), s.C, s.D};
  }
  throw std::invalid_argument("discretize: unknown method " + std::to_string(int(method)));
}

}  // namespace zoh

// Between the chapter's plain row-major vectors and Eigen's matrices (for the .cpp files
// that use Eigen; never included from a .cu).
#pragma once

#include "ssm.hpp"

#include <Eigen/Dense>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace zoh {

using Matrix = Eigen::MatrixXd;
using Vector = Eigen::VectorXd;

inline Matrix matrix_of(const std::vector<double>& row_major, int n) {
  return Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(row_major.data(), n,
                                                                                                  n);
}

inline Vector vector_of(const std::vector<double>& v) {
  return Eigen::Map<const Vector>(v.data(), Eigen::Index(v.size()));
}

inline std::vector<double> to_std(const Vector& v) { return {v.data(), v.data() + v.size()}; }

inline std::vector<double> to_row_major(const Matrix& m) {
  std::vector<double> out(std::size_t(m.rows()) * m.cols());
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) out[std::size_t(i * m.cols() + j)] = m(i, j);
  return out;
}

// Throws a one-line error for a system whose arrays do not match n, or a step that is not
// a positive finite number.
inline void check_shapes(const ContinuousSsm& s, double delta) {
  const std::size_t n = s.n > 0 ? std::size_t(s.n) : 0;
  if (n == 0 || s.A.size() != n * n || s.B.size() != n || s.C.size() != n)
    throw std::invalid_argument("discretize: A must be n × n and B, C of length n (n = " + std::to_string(s.n) + ")");
  if (!(delta > 0) || !std::isfinite(delta))
    throw std::invalid_argument("discretize: the step Δ must be positive and finite");
}

}  // namespace zoh

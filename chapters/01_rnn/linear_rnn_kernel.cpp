// Exercise 1's solution (the stub is exercises/linear_rnn_kernel.cpp).
#include "unrolled.hpp"

#include <Eigen/Dense>

namespace rnn {

// [snippet:linear_rnn_kernel]
std::vector<double> linear_rnn_kernel(const Weights& w, int length) {
  const int H = w.hidden;
  const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> A(w.W.data(), H, H);
  const Eigen::Map<const Eigen::VectorXd> B(w.u.data(), H), C(w.c.data(), H);
  std::vector<double> K(length);
  Eigen::VectorXd power_times_B = B;  // A^k B, one matrix-vector product per k
  for (int k = 0; k < length; ++k) {
    K[k] = C.dot(power_times_B);
    power_times_B = A * power_times_B;
  }
  return K;
}
// [/snippet:linear_rnn_kernel]

}  // namespace rnn

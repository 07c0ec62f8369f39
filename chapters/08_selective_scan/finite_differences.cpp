#include "finite_differences.hpp"

namespace ch08 {

double central_difference(Problem& p, double& x, const std::vector<double>& dout,
                          const std::vector<Complex>& dlast_state) {
  const double saved = x;
  x = saved + kFiniteDifferenceStep;
  const double up = reference_loss(p, dout, dlast_state);
  x = saved - kFiniteDifferenceStep;
  const double down = reference_loss(p, dout, dlast_state);
  x = saved;
  return (up - down) / (2 * kFiniteDifferenceStep);
}

std::vector<double> finite_differences(Problem p, std::vector<double> Problem::*field, const std::vector<double>& dout,
                                       const std::vector<Complex>& dlast_state) {
  std::vector<double> grad;
  for (double& x : p.*field) grad.push_back(central_difference(p, x, dout, dlast_state));
  return grad;
}

std::vector<Complex> finite_differences(Problem p, std::vector<Complex> Problem::*field,
                                        const std::vector<double>& dout, const std::vector<Complex>& dlast_state) {
  std::vector<Complex> grad;
  for (Complex& z : p.*field) {
    double* parts = reinterpret_cast<double*>(&z);  // std::complex is laid out as [re, im]
    const double re = central_difference(p, parts[0], dout, dlast_state);
    grad.emplace_back(re, p.complex ? central_difference(p, parts[1], dout, dlast_state) : 0.0);
  }
  return grad;
}

}  // namespace ch08

#include "finite_differences.hpp"

namespace ch10 {

std::vector<double> finite_differences(const Problem& p, std::vector<double> Problem::*field,
                                       const std::vector<double>& dy, const std::vector<double>& dfinal_states) {
  Problem shifted = p;
  std::vector<double>& values = shifted.*field;
  std::vector<double> grad(values.size());
  for (std::size_t e = 0; e < values.size(); ++e) {
    const double saved = values[e];
    values[e] = saved + kFiniteDifferenceStep;
    const double up = ssd_loss(shifted, dy, dfinal_states);
    values[e] = saved - kFiniteDifferenceStep;
    const double down = ssd_loss(shifted, dy, dfinal_states);
    values[e] = saved;
    grad[e] = (up - down) / (2 * kFiniteDifferenceStep);
  }
  return grad;
}

}  // namespace ch10

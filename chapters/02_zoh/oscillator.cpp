#include "oscillator.hpp"

#include <cmath>
#include <stdexcept>

namespace zoh {
namespace {

void check_underdamped(const Oscillator& o) {
  if (!(o.omega > 0) || !(o.zeta > 0 && o.zeta < 1))
    throw std::invalid_argument("Oscillator: needs ω > 0 and 0 < ζ < 1 (under-damped)");
}

}  // namespace

ContinuousSsm Oscillator::system() const {
  check_underdamped(*this);
  return {2, {0.0, 1.0, -omega * omega, -2 * zeta * omega}, {0.0, omega * omega}, {1.0, 0.0}, 0.0};
}

double Oscillator::step_response(double t) const {
  check_underdamped(*this);
  if (t <= 0) return 0;
  const double wd = omega * std::sqrt(1 - zeta * zeta);
  const double sigma = zeta * omega;
  return 1 - std::exp(-sigma * t) * (std::cos(wd * t) + sigma / wd * std::sin(wd * t));
}

double Oscillator::impulse_response(double t) const {
  check_underdamped(*this);
  if (t < 0) return 0;
  const double wd = omega * std::sqrt(1 - zeta * zeta);
  return omega * omega / wd * std::exp(-zeta * omega * t) * std::sin(wd * t);
}

double staircase_response(const Oscillator& o, const std::vector<double>& levels, double hold, double t) {
  double y = 0, previous = 0;
  for (std::size_t j = 0; j < levels.size() && j * hold < t; ++j) {
    y += (levels[j] - previous) * o.step_response(t - j * hold);
    previous = levels[j];
  }
  return y;
}

std::vector<double> staircase_samples(const std::vector<double>& levels, int m) {
  if (m < 1) throw std::invalid_argument("staircase_samples: m must be at least 1");
  std::vector<double> x(levels.size() * std::size_t(m));
  for (std::size_t k = 0; k < x.size(); ++k) x[k] = levels[k / std::size_t(m)];
  return x;
}

}  // namespace zoh

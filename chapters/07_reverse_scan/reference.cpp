#include "reference.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace rscan {

namespace {
void require_size(std::span<const double> v, Shape shape, const char* what) {
  if (v.size() != shape.size()) throw std::invalid_argument(std::string("rscan: wrong size of ") + what);
}
}  // namespace

std::vector<double> forward(Shape shape, std::span<const double> a, std::span<const double> b) {
  require_size(a, shape, "a");
  require_size(b, shape, "b");
  std::vector<double> h(shape.size());
  for (std::size_t s = 0; s < shape.sequences; ++s) {
    double state = 0;
    for (std::size_t k = 0; k < shape.length; ++k) {
      const std::size_t i = s * shape.length + k;
      state = a[i] * state + b[i];
      h[i] = state;
    }
  }
  return h;
}

Gradients backward(Shape shape, std::span<const double> a, std::span<const double> h, std::span<const double> dy) {
  require_size(h, shape, "h");
  Gradients out;
  out.g = reverse_pass(shape, a, dy);
  out.grad_a = grad_a_from(shape, out.g, h);
  return out;
}

double log_cosh_loss(std::span<const double> h, std::span<const double> target) {
  double loss = 0;
  for (std::size_t i = 0; i < h.size(); ++i) {
    // log cosh r = |r| + log(1 + e^{−2|r|}) − log 2, which does not overflow for large |r|.
    const double r = std::abs(h[i] - target[i]);
    loss += r + std::log1p(std::exp(-2 * r)) - std::numbers::ln2;
  }
  return loss;
}

std::vector<double> log_cosh_loss_gradient(std::span<const double> h, std::span<const double> target) {
  std::vector<double> dy(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) dy[i] = std::tanh(h[i] - target[i]);
  return dy;
}

Gradients finite_differences(Shape shape, std::span<const double> a, std::span<const double> b,
                             std::span<const double> target, double step) {
  std::vector<double> a_moved(a.begin(), a.end()), b_moved(b.begin(), b.end());
  auto loss = [&] { return log_cosh_loss(forward(shape, a_moved, b_moved), target); };
  auto central = [&](std::vector<double>& theta, std::size_t i) {
    const double kept = theta[i];
    theta[i] = kept + step;
    const double up = loss();
    theta[i] = kept - step;
    const double down = loss();
    theta[i] = kept;
    return (up - down) / (2 * step);
  };
  Gradients out{std::vector<double>(shape.size()), std::vector<double>(shape.size())};
  for (std::size_t i = 0; i < shape.size(); ++i) {
    out.g[i] = central(b_moved, i);
    out.grad_a[i] = central(a_moved, i);
  }
  return out;
}

}  // namespace rscan

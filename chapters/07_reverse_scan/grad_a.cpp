// ∂L/∂a_k from g and h (exercise 2's solution).
#include "reference.hpp"

namespace rscan {

// [snippet:grad_a]
std::vector<double> grad_a_from(Shape shape, std::span<const double> g, std::span<const double> h) {
  std::vector<double> grad_a(shape.size());
  for (std::size_t s = 0; s < shape.sequences; ++s)
    for (std::size_t k = 0; k < shape.length; ++k) {
      const std::size_t i = s * shape.length + k;
      const double h_before = k > 0 ? h[i - 1] : 0.0;  // h_{−1} = 0
      grad_a[i] = g[i] * h_before;
    }
  return grad_a;
}
// [/snippet:grad_a]

}  // namespace rscan

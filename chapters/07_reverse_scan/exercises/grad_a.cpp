// Exercise 2: ∂L/∂a_k from g and h.
//
// Return grad_a with grad_a_k = g_k h_{k−1} for every sequence of `shape`; the state before
// the first step of each sequence is h_{−1} = 0 (do not read the previous sequence's last h).
// Test it with:  scripts/exercise ch07_reverse_scan 2
#include "reference.hpp"

namespace rscan {

// [snippet:exercise]
std::vector<double> grad_a_from(Shape shape, std::span<const double> g, std::span<const double> h) {
  std::vector<double> grad_a(shape.size(), 0.0);
  // TODO(exercise): fill grad_a.
  // [/snippet:exercise]
  (void)g;
  (void)h;
  return grad_a;
}

}  // namespace rscan

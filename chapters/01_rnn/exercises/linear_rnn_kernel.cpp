// Exercise 1: the linear RNN's convolution kernel.
//
// Return K with K[k] = c · W^k u for k = 0 .. length−1 (fp64), where W is H × H row-major
// (w.W), u = w.u and c = w.c. Hint: never form W^k; keep the vector W^k u and multiply it by
// W once per step -- H² work per k instead of H³.
// Test it with:  scripts/exercise ch01_rnn 1
#include "unrolled.hpp"

namespace rnn {

// [snippet:stub]
std::vector<double> linear_rnn_kernel(const Weights& w, int length) {
  std::vector<double> K(length, 0.0);
  // TODO(exercise): fill K.
  (void)w;
  return K;
}
// [/snippet:stub]

}  // namespace rnn

// Exercise 2: backpropagation through time for the tanh RNN (see bptt.hpp).
//
// Forward:  a_t = W h_{t−1} + u x_t,  h_t = tanh(a_t),  y_t = c · h_t,  ℓ = Σ_t g[t] y_t.
// Walk t = L−1 down to 0 carrying dh = ∂ℓ/∂h_t:
//   dh += g[t] c;        dc += g[t] h_t;      da = dh ⊙ (1 − h_t²)
//   dW += da h_{t−1}ᵀ;   du += da x_t;        dh = Wᵀ da   (now ∂ℓ/∂h_{t−1})
// and return the last dh as dh_initial. trajectory() (reference.hpp) gives every h_t.
// Test it with:  scripts/exercise ch01_rnn 2
#include "bptt.hpp"

#include "reference.hpp"

namespace rnn {

// [snippet:stub]
Gradients backprop_through_time(const Weights& w, const std::vector<double>& x, const std::vector<double>& g,
                                const std::vector<double>& h_initial) {
  const int H = w.hidden;
  Gradients grad{std::vector<double>(std::size_t(H) * H), std::vector<double>(H), std::vector<double>(H),
                 std::vector<double>(H)};
  // TODO(exercise): fill grad.
  (void)x, (void)g, (void)h_initial;
  return grad;
}
// [/snippet:stub]

}  // namespace rnn

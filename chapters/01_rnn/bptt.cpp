// Exercise 2's solution (the stub is exercises/bptt.cpp).
#include "bptt.hpp"

#include "reference.hpp"

namespace rnn {

// [snippet:bptt]
Gradients backprop_through_time(const Weights& w, const std::vector<double>& x, const std::vector<double>& g,
                                const std::vector<double>& h_initial) {
  const int H = w.hidden;
  const int L = static_cast<int>(x.size());
  const auto h = trajectory(w, Sequences{1, L, x}, 0, Activation::tanh, h_initial);  // h[t + 1] = h_t
  Gradients grad{std::vector<double>(std::size_t(H) * H), std::vector<double>(H), std::vector<double>(H), {}};
  std::vector<double> dh(H, 0.0), da(H);  // dh = ∂ℓ/∂h_t, from the steps after t
  for (int t = L - 1; t >= 0; --t) {
    for (int j = 0; j < H; ++j) {
      dh[j] += g[t] * w.c[j];  // y_t = c · h_t
      grad.dc[j] += g[t] * h[t + 1][j];
      da[j] = dh[j] * (1 - h[t + 1][j] * h[t + 1][j]);  // h_t = tanh(a_t)
    }
    for (int j = 0; j < H; ++j) {  // a_t = W h_{t−1} + u x_t
      for (int k = 0; k < H; ++k) grad.dW[std::size_t(j) * H + k] += da[j] * h[t][k];
      grad.du[j] += da[j] * x[t];
    }
    for (int k = 0; k < H; ++k) {  // on to h_{t−1}: Wᵀ da
      dh[k] = 0;
      for (int j = 0; j < H; ++j) dh[k] += w.W[std::size_t(j) * H + k] * da[j];
    }
  }
  grad.dh_initial = dh;
  return grad;
}
// [/snippet:bptt]

}  // namespace rnn

// Exercise 1: the causal depthwise convolution's backward, one channel.
//
// The forward is out_t = bias + Σ_k w_k · x_{t-(W-1)+k}, with x_t = 0 for t < 0 (see
// causal_conv1d.cpp). Given dout = ∂L/∂out, write dx = ∂L/∂x, and ADD ∂L/∂w_k into dweight and
// ∂L/∂bias into dbias. Which outputs does x_s reach? Mind the end of the sequence.
// Test it with:  scripts/exercise ch09_mamba_model 1
#include "causal_conv1d.hpp"

namespace ch09 {

// [snippet:exercise]
void causal_conv1d_backward(std::span<const double> x, std::span<const double> weight, std::span<const double> dout,
                            std::span<double> dx, std::span<double> dweight, double& dbias) {
  // TODO(exercise): write dx; add into dweight and dbias.
  // [/snippet:exercise]
  (void)x;
  (void)weight;
  (void)dout;
  (void)dweight;
  (void)dbias;
  for (double& v : dx) v = 0.0;
}

}  // namespace ch09

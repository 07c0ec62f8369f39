// The causal depthwise convolution of one channel, before the SiLU:
//   out_t = bias + Σ_k w_k · x_{t-(W-1)+k},   x_t = 0 for t < 0
// Each channel has its own W taps (W = conv_width = 4 in Mamba). Tap W-1 multiplies the current
// input, tap 0 the input W-1 steps back: the output never sees the future, so the block stays
// causal and the recurrent inference needs only the last W-1 inputs (the conv state).
#pragma once

#include <span>

namespace ch09 {

void causal_conv1d_forward(std::span<const double> x, std::span<const double> weight, double bias,
                           std::span<double> out);

// Exercise 1 (conv1d_backward.cpp): from dout = ∂L/∂out, write dx = ∂L/∂x and ADD ∂L/∂w into
// dweight and ∂L/∂bias into dbias (weights are shared by every step and every sequence).
void causal_conv1d_backward(std::span<const double> x, std::span<const double> weight, std::span<const double> dout,
                            std::span<double> dx, std::span<double> dweight, double& dbias);

}  // namespace ch09

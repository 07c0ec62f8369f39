// The problem of chapter 01: many independent sequences through one small RNN.
//
//   h_t = f(W h_{t-1} + u x_t),   y_t = c · h_t,   h_{-1} = 0
//
// with f = tanh (the classic RNN) or f = identity (the linear RNN, which is a discrete
// state space model with A = W, B = u, C = c). Input and output are scalars per step --
// single-input, single-output, like each channel of Mamba -- and the hidden state has H
// units.
//
// Layout: x and y are time-major, element (t, b) at t * batch + b, so that at every step
// the threads that own neighbouring sequences touch neighbouring addresses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rnn {

enum class Activation { tanh, identity };

const char* name(Activation f);

struct Weights {
  int hidden = 0;         // H
  std::vector<double> W;  // H × H, row-major
  std::vector<double> u;  // H (input weights; B of the SSM)
  std::vector<double> c;  // H (output weights; C of the SSM)
};

struct Sequences {
  int batch = 0;
  int length = 0;         // L
  std::vector<double> x;  // L × batch, time-major
};

// Random weights: W has Gaussian entries, rescaled so that its spectral radius (largest
// |eigenvalue|) is exactly `spectral_radius`; u and c are Gaussian with variance 1/H.
Weights random_weights(int hidden, double spectral_radius, std::uint64_t seed);

// Inputs x ~ N(0, 1).
Sequences random_sequences(int batch, int length, std::uint64_t seed);

inline std::size_t at(int t, int b, int batch) {
  return static_cast<std::size_t>(t) * static_cast<std::size_t>(batch) + static_cast<std::size_t>(b);
}

}  // namespace rnn

// The activation f of h_t = f(W h_{t-1} + u x_t), chosen at compile time so the linear RNN
// pays nothing for the tanh it does not use.
#pragma once

#include "rnn.hpp"

namespace rnn {

template <Activation F>
__device__ __forceinline__ float activate(float a) {
  if constexpr (F == Activation::tanh) {
    return tanhf(a);
  } else {
    return a;
  }
}

// The same choice made at run time, for the naive version (a branch every thread of the
// launch takes the same way costs next to nothing).
__device__ __forceinline__ float activate(Activation f, float a) { return f == Activation::tanh ? tanhf(a) : a; }

}  // namespace rnn

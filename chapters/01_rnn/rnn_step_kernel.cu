// Exercise 3's solution: kernel 1's step (declared in rnn_step_kernel.cuh).
#include "activation.cuh"
#include "rnn_step_kernel.cuh"

#include <cstddef>

namespace rnn {

// [snippet:step_kernel]
__global__ void rnn_step_kernel(Activation f, int hidden, int batch, const float* W, const float* u, const float* x_t,
                                const float* h_prev, float* h_next) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= std::size_t(batch) * hidden) return;
  const std::size_t b = i / hidden;
  const int j = static_cast<int>(i % hidden);
  float a = u[j] * x_t[b];
  for (int k = 0; k < hidden; ++k) a = fmaf(W[j * hidden + k], h_prev[b * hidden + k], a);
  h_next[i] = activate(f, a);
}
// [/snippet:step_kernel]

}  // namespace rnn

// Exercise 3: kernel 1's step -- one thread per (sequence b, hidden unit j), one launch
// per time step (rnn_kernels.cu launches it L times).
//
// Thread i handles b = i / hidden and j = i % hidden (states are batch × hidden,
// row-major) and writes
//     h_next[b, j] = f( Σ_k W[j, k] · h_prev[b, k]  +  u[j] · x_t[b] )
// where f(a) is activate(f, a) (activation.cuh). Threads past batch × hidden must do nothing.
// Test it on a GPU with:  scripts/exercise ch01_rnn 3
#include "activation.cuh"
#include "rnn_step_kernel.cuh"

#include <cstddef>

namespace rnn {

// [snippet:stub]
__global__ void rnn_step_kernel(Activation f, int hidden, int batch, const float* W, const float* u, const float* x_t,
                                const float* h_prev, float* h_next) {
  // TODO(exercise): compute h_next for this thread's (b, j).
}
// [/snippet:stub]

}  // namespace rnn

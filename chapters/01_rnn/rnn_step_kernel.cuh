// Kernel 1's step, declared here and defined in rnn_step_kernel.cu -- exercise 3, whose
// stub is exercises/rnn_step_kernel.cu. rnn_kernels.cu launches it.
#pragma once

#include "rnn.hpp"

namespace rnn {

// One thread per (sequence b, hidden unit j), states batch × H row-major:
//   h_next[b, j] = f( Σ_k W[j, k] · h_prev[b, k]  +  u[j] · x_t[b] )
// (Not a template: a kernel template defined in another file cannot be launched from here
// without separate compilation.)
__global__ void rnn_step_kernel(Activation f, int hidden, int batch, const float* W, const float* u, const float* x_t,
                                const float* h_prev, float* h_next);

}  // namespace rnn

// gpu_embedding.hpp: the token embedding on the GPU, forward and backward, channels-first.
#pragma once

#include <cuda_runtime_api.h>

namespace ch09::gpu {

// r (batch, d_model, seqlen) = E[token[b, t], :] for every (b, t); E is (vocab, d_model).
// A token outside [0, vocab) gives a NaN column, so a bad token cannot pass unnoticed.
void embedding_forward(const int* tokens, const float* E, float* r, int batch, int d_model, int seqlen, int vocab,
                       cudaStream_t stream = nullptr);

// dE[v, c] += sum over the positions (b, t) holding token v of dr[b, c, t].
void embedding_backward(const int* tokens, const float* dr, float* dE, int batch, int d_model, int seqlen, int vocab,
                        cudaStream_t stream = nullptr);

}  // namespace ch09::gpu

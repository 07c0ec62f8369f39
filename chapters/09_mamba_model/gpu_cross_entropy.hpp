// gpu_cross_entropy.hpp: the loss over (batch, vocab, seqlen) logits, its gradient, and the count
// of correct predictions, all without a trip to the host.
//
// loss = mean over the positions with target >= 0 of (logsumexp_v logits[b, :, t] - logits[b, target, t]).
// A target of -1 (kIgnoreTarget) marks a position without a loss. A prediction is the first index of
// the largest logit; it is correct when it equals the target.
#pragma once

#include <cuda_runtime_api.h>

namespace ch09::gpu {

constexpr int kIgnoreTarget = -1;

// What the forward leaves on the device; read it whenever it suits (one copy, one sync).
struct LossMetrics {
  float loss = 0;   // the mean over the target positions (0 when there are none)
  int correct = 0;  // target positions whose argmax is the target
  int targets = 0;  // positions with target >= 0
};

// logits (batch, vocab, seqlen), targets (batch, seqlen). Scratch: per-position loss and
// logsumexp, `batch * seqlen` floats each; `correct` batch * seqlen ints. Writes *metrics.
void cross_entropy_forward(const float* logits, const int* targets, float* position_loss, float* logsumexp,
                           int* position_correct, LossMetrics* metrics, int batch, int vocab, int seqlen,
                           cudaStream_t stream = nullptr);

// dlogits = (softmax - onehot(target)) / targets at the target positions, 0 elsewhere (written).
void cross_entropy_backward(const float* logits, const int* targets, const float* logsumexp, const LossMetrics* metrics,
                            float* dlogits, int batch, int vocab, int seqlen, cudaStream_t stream = nullptr);

}  // namespace ch09::gpu

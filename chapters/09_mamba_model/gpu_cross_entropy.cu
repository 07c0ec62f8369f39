// gpu_cross_entropy.cu: cross-entropy over channels-first logits.
//
// The vocabulary (16) is the reduced dimension and it is L apart in memory, so as in the RMSNorm
// one thread owns one position (b, t) and loops over the vocabulary: a warp reads 32 consecutive
// times of one row at each step. The mean needs the number of target positions, which only the
// device knows without a sync, so a one-block kernel sums the positions in a fixed order and the
// backward reads the count from device memory.
#include "gpu_cross_entropy.hpp"

#include "cuda_check.hpp"
#include "gpu_launch.cuh"

#include <cmath>

namespace ch09::gpu {

namespace {

// [snippet:cross_entropy_forward]
__global__ void cross_entropy_position_kernel(const float* logits, const int* targets, float* position_loss,
                                              float* logsumexp, int* position_correct, int batch, int vocab,
                                              int seqlen) {
  const long long p = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;  // (b, t)
  if (p >= static_cast<long long>(batch) * seqlen) return;
  const long long b = p / seqlen, t = p % seqlen;
  const float* column = logits + b * vocab * seqlen + t;  // logits[b, v, t] = column[v * seqlen]
  float largest = column[0];
  int argmax = 0;
  for (int v = 1; v < vocab; ++v) {
    const float value = column[v * static_cast<long long>(seqlen)];
    if (value > largest) largest = value, argmax = v;
  }
  float sum = 0.0f;
  for (int v = 0; v < vocab; ++v) sum += expf(column[v * static_cast<long long>(seqlen)] - largest);
  const float lse = largest + logf(sum);
  const int target = targets[p];
  const bool counted = target >= 0 && target < vocab;
  logsumexp[p] = lse;
  position_loss[p] = counted ? lse - column[target * static_cast<long long>(seqlen)] : 0.0f;
  position_correct[p] = counted && argmax == target;
}
// [/snippet:cross_entropy_forward]

// One block: the sums over every position in a fixed order (float loss, integer counts).
__global__ void cross_entropy_reduce_kernel(const float* position_loss, const int* position_correct, const int* targets,
                                            long long positions, int vocab, LossMetrics* metrics) {
  __shared__ float scratch[32];
  float loss = 0.0f, correct = 0.0f, counted = 0.0f;  // counts below 2^24 are exact in float
  for (long long p = threadIdx.x; p < positions; p += blockDim.x) {
    loss += position_loss[p];
    correct += static_cast<float>(position_correct[p]);
    counted += (targets[p] >= 0 && targets[p] < vocab) ? 1.0f : 0.0f;
  }
  loss = block_sum(loss, scratch);
  correct = block_sum(correct, scratch);
  counted = block_sum(counted, scratch);
  if (threadIdx.x == 0) {
    metrics->loss = counted > 0 ? loss / counted : 0.0f;
    metrics->correct = static_cast<int>(correct);
    metrics->targets = static_cast<int>(counted);
  }
}

// One thread per logit: (softmax - onehot) / count, t fastest (coalesced).
__global__ void cross_entropy_backward_kernel(const float* logits, const int* targets, const float* logsumexp,
                                              const LossMetrics* metrics, float* dlogits, int batch, int vocab,
                                              int seqlen) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= static_cast<long long>(batch) * vocab * seqlen) return;
  const long long t = i % seqlen, v = (i / seqlen) % vocab, b = i / (static_cast<long long>(seqlen) * vocab);
  const long long p = b * seqlen + t;
  const int target = targets[p];
  if (target < 0 || target >= vocab) {
    dlogits[i] = 0.0f;
    return;
  }
  const float softmax = expf(logits[i] - logsumexp[p]);
  dlogits[i] = (softmax - (v == target ? 1.0f : 0.0f)) / static_cast<float>(metrics->targets);
}

}  // namespace

void cross_entropy_forward(const float* logits, const int* targets, float* position_loss, float* logsumexp,
                           int* position_correct, LossMetrics* metrics, int batch, int vocab, int seqlen,
                           cudaStream_t stream) {
  const long long positions = static_cast<long long>(batch) * seqlen;
  if (positions > 0) {
    cross_entropy_position_kernel<<<blocks_for(positions), kThreads, 0, stream>>>(
        logits, targets, position_loss, logsumexp, position_correct, batch, vocab, seqlen);
    CUDA_CHECK_LAUNCH();
  }
  cross_entropy_reduce_kernel<<<1, 1024, 0, stream>>>(position_loss, position_correct, targets, positions, vocab,
                                                      metrics);
  CUDA_CHECK_LAUNCH();
}

void cross_entropy_backward(const float* logits, const int* targets, const float* logsumexp, const LossMetrics* metrics,
                            float* dlogits, int batch, int vocab, int seqlen, cudaStream_t stream) {
  const long long n = static_cast<long long>(batch) * vocab * seqlen;
  if (n == 0) return;
  cross_entropy_backward_kernel<<<blocks_for(n), kThreads, 0, stream>>>(logits, targets, logsumexp, metrics, dlogits,
                                                                        batch, vocab, seqlen);
  CUDA_CHECK_LAUNCH();
}

}  // namespace ch09::gpu

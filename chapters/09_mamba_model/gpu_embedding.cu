// gpu_embedding.cu: the token embedding, forward (a gather) and backward (a sum per table entry).
#include "gpu_embedding.hpp"

#include "cuda_check.hpp"
#include "gpu_launch.cuh"

#include <cmath>

namespace ch09::gpu {

namespace {

// One thread per output element with t fastest: the writes of a warp are one contiguous run
// of r, the reads of E are gathers from a table of a few KB that stays in cache.
// [snippet:embedding_forward]
__global__ void embedding_forward_kernel(const int* tokens, const float* E, float* r, int batch, int d_model,
                                         int seqlen, int vocab) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= static_cast<long long>(batch) * d_model * seqlen) return;
  const int t = static_cast<int>(i % seqlen);
  const int c = static_cast<int>((i / seqlen) % d_model);
  const long long b = i / (static_cast<long long>(seqlen) * d_model);
  const int token = tokens[b * seqlen + t];
  r[i] = (token >= 0 && token < vocab) ? E[static_cast<long long>(token) * d_model + c] : NAN;
}
// [/snippet:embedding_forward]

// The backward is a scatter-add: many positions hold the same token. Atomics would make the sum's
// order (and so its last bits) change from run to run; instead one block owns one entry (v, c) of
// the table and sums, in a fixed order, dr over every position whose token is v. The vocabulary is
// small (16), so reading the tokens once per entry costs little.
__global__ void embedding_backward_kernel(const int* tokens, const float* dr, float* dE, int batch, int d_model,
                                          int seqlen) {
  __shared__ float scratch[32];
  const int c = blockIdx.x, v = blockIdx.y;
  float sum = 0.0f;
  const long long positions = static_cast<long long>(batch) * seqlen;
  for (long long p = threadIdx.x; p < positions; p += blockDim.x) {
    if (tokens[p] != v) continue;
    const long long b = p / seqlen, t = p % seqlen;
    sum += dr[(b * d_model + c) * seqlen + t];
  }
  sum = block_sum(sum, scratch);
  if (threadIdx.x == 0) dE[static_cast<long long>(v) * d_model + c] += sum;
}

}  // namespace

void embedding_forward(const int* tokens, const float* E, float* r, int batch, int d_model, int seqlen, int vocab,
                       cudaStream_t stream) {
  const long long n = static_cast<long long>(batch) * d_model * seqlen;
  if (n == 0) return;
  embedding_forward_kernel<<<blocks_for(n), kThreads, 0, stream>>>(tokens, E, r, batch, d_model, seqlen, vocab);
  CUDA_CHECK_LAUNCH();
}

void embedding_backward(const int* tokens, const float* dr, float* dE, int batch, int d_model, int seqlen, int vocab,
                        cudaStream_t stream) {
  if (d_model == 0 || vocab == 0) return;
  embedding_backward_kernel<<<dim3(d_model, vocab), kThreads, 0, stream>>>(tokens, dr, dE, batch, d_model, seqlen);
  CUDA_CHECK_LAUNCH();
}

}  // namespace ch09::gpu

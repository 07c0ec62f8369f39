// gpu_rms_norm.cu: RMSNorm over the channels at each (b, t) of a channels-first tensor.
//
// The reduction runs over channels, which are L apart in memory, while time is contiguous. So
// one thread owns one (b, t) and loops over the channels: at every step of that loop the
// threads of a warp read 32 consecutive times of one channel, a coalesced load. (A block per
// (b, t) reducing across threads would read with stride L.) d_model is 64 here: a short loop.
#include "gpu_rms_norm.hpp"

#include "cuda_check.hpp"
#include "gpu_launch.cuh"

namespace ch09::gpu {

namespace {

// [snippet:rms_norm_forward]
__global__ void rms_norm_forward_kernel(const float* x, const float* w, float* y, float* rstd, int batch, int channels,
                                        int seqlen) {
  const long long p = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;  // (b, t)
  if (p >= static_cast<long long>(batch) * seqlen) return;
  const long long L = seqlen, b = p / L, t = p % L;
  const float* xp = x + b * channels * L + t;  // xp[c * L] = x[b, c, t]
  float sum_sq = 0.0f;
  for (int c = 0; c < channels; ++c) sum_sq += xp[c * L] * xp[c * L];
  const float r = rsqrtf(sum_sq / channels + kRmsNormEps);
  float* yp = y + b * channels * L + t;
  for (int c = 0; c < channels; ++c) yp[c * L] = xp[c * L] * r * w[c];
  rstd[p] = r;
}
// [/snippet:rms_norm_forward]

// dx_c = rstd (g_c - x_c rstd^2 (sum_c' g_c' x_c') / C) with g = dy w: the same one-thread-per-(b, t)
// shape as the forward, two passes over the channels.
__global__ void rms_norm_backward_input_kernel(const float* dy, const float* x, const float* rstd, const float* w,
                                               float* dx, bool accumulate, int batch, int channels, int seqlen) {
  const long long p = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (p >= static_cast<long long>(batch) * seqlen) return;
  const long long b = p / seqlen, t = p % seqlen, base = b * channels * seqlen + t;
  float dot = 0.0f;
  for (int c = 0; c < channels; ++c) {
    const long long i = base + c * static_cast<long long>(seqlen);
    dot += dy[i] * w[c] * x[i];
  }
  const float r = rstd[p];
  const float scale = r * r * dot / channels;
  for (int c = 0; c < channels; ++c) {
    const long long i = base + c * static_cast<long long>(seqlen);
    const float g = r * (dy[i] * w[c] - x[i] * scale);
    dx[i] = accumulate ? dx[i] + g : g;
  }
}

// dw[c] = sum over (b, t) of dy x rstd: a sum over every position of one channel, so one block
// per channel (deterministic order, no atomics), its threads walking time (coalesced).
__global__ void rms_norm_backward_weight_kernel(const float* dy, const float* x, const float* rstd, float* dw,
                                                int batch, int channels, int seqlen) {
  __shared__ float scratch[32];
  const int c = blockIdx.x;
  float sum = 0.0f;
  for (int b = 0; b < batch; ++b) {
    const long long row = (static_cast<long long>(b) * channels + c) * seqlen;
    for (int t = threadIdx.x; t < seqlen; t += blockDim.x)
      sum += dy[row + t] * x[row + t] * rstd[static_cast<long long>(b) * seqlen + t];
  }
  sum = block_sum(sum, scratch);
  if (threadIdx.x == 0) dw[c] = sum;
}

}  // namespace

void rms_norm_forward(const float* x, const float* w, float* y, float* rstd, int batch, int channels, int seqlen,
                      cudaStream_t stream) {
  const long long positions = static_cast<long long>(batch) * seqlen;
  if (positions == 0) return;
  rms_norm_forward_kernel<<<blocks_for(positions), kThreads, 0, stream>>>(x, w, y, rstd, batch, channels, seqlen);
  CUDA_CHECK_LAUNCH();
}

void rms_norm_backward(const float* dy, const float* x, const float* rstd, const float* w, float* dx,
                       bool accumulate_dx, float* dw, int batch, int channels, int seqlen, cudaStream_t stream) {
  const long long positions = static_cast<long long>(batch) * seqlen;
  if (positions > 0) {
    rms_norm_backward_input_kernel<<<blocks_for(positions), kThreads, 0, stream>>>(dy, x, rstd, w, dx, accumulate_dx,
                                                                                   batch, channels, seqlen);
    CUDA_CHECK_LAUNCH();
  }
  if (channels > 0) {
    rms_norm_backward_weight_kernel<<<channels, kThreads, 0, stream>>>(dy, x, rstd, dw, batch, channels, seqlen);
    CUDA_CHECK_LAUNCH();
  }
}

}  // namespace ch09::gpu

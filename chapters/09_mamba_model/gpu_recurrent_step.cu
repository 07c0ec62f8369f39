// gpu_recurrent_step.cu: the convolution's recurrent step, one thread per (sequence, channel).
//
// A step of inference touches each input once, so the work is tiny (d_inner × (W - 1) numbers a
// sequence and layer) and the kernel is simple on purpose: a thread owns one channel of one
// sequence and shifts its W - 1 = 3 past inputs in registers. With many sequences in flight the
// grid fills the GPU; a warp's threads hold neighbouring channels. (The scan's step is chapter
// 08's library's, selective_scan::step.)
#include "gpu_recurrent_step.hpp"

#include "cuda_check.hpp"
#include "gpu_conv1d.hpp"
#include "gpu_launch.cuh"

namespace ch09::gpu {

namespace {

__global__ void conv1d_silu_step_kernel(const float* x, long long x_stride, float* conv_state, long long state_stride,
                                        const float* w, const float* bias, float* xs, int sequences, int channels,
                                        int width) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= static_cast<long long>(sequences) * channels) return;
  const long long s = i / channels;
  const int c = static_cast<int>(i % channels);
  float* past = conv_state + s * state_stride + static_cast<long long>(c) * (width - 1);  // oldest first
  const float input = x[s * x_stride + c];
  const float* taps = w + c * width;
  float acc = bias[c] + taps[width - 1] * input;
  for (int k = 0; k < width - 1; ++k) acc += taps[k] * past[k];
  for (int k = 0; k + 1 < width - 1; ++k) past[k] = past[k + 1];
  if (width > 1) past[width - 2] = input;
  xs[i] = silu(acc);
}

}  // namespace

void conv1d_silu_step(const float* x, long long x_stride, float* conv_state, long long state_stride, const float* w,
                      const float* bias, float* xs, int sequences, int channels, int width, cudaStream_t stream) {
  const long long n = static_cast<long long>(sequences) * channels;
  if (n == 0) return;
  conv1d_silu_step_kernel<<<blocks_for(n), kThreads, 0, stream>>>(x, x_stride, conv_state, state_stride, w, bias, xs,
                                                                  sequences, channels, width);
  CUDA_CHECK_LAUNCH();
}

}  // namespace ch09::gpu

// gpu_recurrent_step.cu: the recurrent step's two kernels, one thread per (sequence, channel).
//
// A step of inference touches each state once, so the work is tiny (d_inner × N multiply-adds a
// sequence and layer) and the kernels are simple on purpose: a thread owns one channel of one
// sequence and loops over its N = 16 states (or its W - 1 = 3 conv inputs) in registers. With
// many sequences in flight the grid fills the GPU; a warp's threads hold neighbouring channels.
#include "gpu_recurrent_step.hpp"

#include "cuda_check.hpp"
#include "gpu_conv1d.hpp"
#include "gpu_launch.cuh"
#include "softplus.hpp"

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

// [snippet:ssm_step_kernel]
__global__ void ssm_step_kernel(SsmStepArgs a) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= static_cast<long long>(a.sequences) * a.channels) return;
  const long long s = i / a.channels;
  const int c = static_cast<int>(i % a.channels), N = a.dstate;
  const float raw = (a.delta_raw ? a.delta_raw[i] : 0.0f) + a.dt_bias[c];
  const float delta = common::softplus(raw);  // cut at 20, as chapter 08's scan cuts it
  const float u = a.u[i];
  // Variable B, C: row s of x_proj's output; constant: row c of the layer's (channels, N) matrices.
  const float* B = a.bc_stride ? a.B + s * a.bc_stride : a.B + static_cast<long long>(c) * N;
  const float* C = a.bc_stride ? a.C + s * a.bc_stride : a.C + static_cast<long long>(c) * N;
  float* h = a.h + s * a.state_stride + static_cast<long long>(c) * N;
  float y = a.D[c] * u;
  for (int n = 0; n < N; ++n) {
    const float A = -expf(a.A_log[c * N + n]);
    const float state = expf(delta * A) * h[n] + delta * B[n] * u;
    h[n] = state;
    y += C[n] * state;
  }
  a.out[i] = y * silu(a.z[s * a.z_stride + c]);
}
// [/snippet:ssm_step_kernel]

}  // namespace

void conv1d_silu_step(const float* x, long long x_stride, float* conv_state, long long state_stride, const float* w,
                      const float* bias, float* xs, int sequences, int channels, int width, cudaStream_t stream) {
  const long long n = static_cast<long long>(sequences) * channels;
  if (n == 0) return;
  conv1d_silu_step_kernel<<<blocks_for(n), kThreads, 0, stream>>>(x, x_stride, conv_state, state_stride, w, bias, xs,
                                                                  sequences, channels, width);
  CUDA_CHECK_LAUNCH();
}

void ssm_step(const SsmStepArgs& args, cudaStream_t stream) {
  const long long n = static_cast<long long>(args.sequences) * args.channels;
  if (n == 0) return;
  ssm_step_kernel<<<blocks_for(n), kThreads, 0, stream>>>(args);
  CUDA_CHECK_LAUNCH();
}

}  // namespace ch09::gpu

// gpu_recurrent_step.hpp: one token of one layer's convolution and scan for a batch of sequences,
// the kernels of recurrent inference. Every tensor here is (sequences, channels): one token each.
#pragma once

#include <cuda_runtime_api.h>

namespace ch09::gpu {

// The causal convolution's step: xc = bias + the W taps over (the last W-1 inputs, x), then the
// state shifts by one (oldest input dropped, x appended) and xs = silu(xc).
// x: (sequences, channels) with row stride x_stride; conv_state: (sequences, channels, W-1) with
// sequence stride state_stride (all layers of a sequence live together); xs contiguous.
void conv1d_silu_step(const float* x, long long x_stride, float* conv_state, long long state_stride, const float* w,
                      const float* bias, float* xs, int sequences, int channels, int width,
                      cudaStream_t stream = nullptr);

// The SSM's step (chapter 01's recurrence with a diagonal A) and the gate:
//   Δ = softplus(delta_raw + dt_bias),  h_n = exp(Δ A_n) h_n + Δ B_n u,  y = Σ_n C_n h_n + D u,
//   out = y silu(z).
// delta_raw: (sequences, channels) or null (LTI: 0). B, C: variable (sequences, N) with row stride
// bc_stride, or constant (channels, N) when bc_stride is 0. h: (sequences, channels, N) with
// sequence stride state_stride.
struct SsmStepArgs {
  const float* u;  // (sequences, channels)
  const float* z;  // rows z_stride apart
  long long z_stride;
  const float* delta_raw;
  const float* dt_bias;
  const float* A_log;  // (channels, N): A = -exp(A_log)
  const float* B;
  const float* C;
  long long bc_stride;
  const float* D;
  float* h;
  long long state_stride;
  float* out;  // (sequences, channels)
  int sequences, channels, dstate;
};
void ssm_step(const SsmStepArgs& args, cudaStream_t stream = nullptr);

}  // namespace ch09::gpu

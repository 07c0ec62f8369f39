// gpu_recurrent_step.hpp: one token of one layer's convolution for a batch of sequences, the
// kernel of recurrent inference besides chapter 08's selective_scan::step. Every tensor here is
// (sequences, channels): one token each.
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

}  // namespace ch09::gpu

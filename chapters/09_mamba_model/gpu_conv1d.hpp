// gpu_conv1d.hpp: the causal depthwise convolution over time, then SiLU, forward and backward.
//
// xc[b, c, t] = bias[c] + sum_k w[c, k] x[b, c, t - (W-1) + k]  (x before t = 0 is 0),
// xs = silu(xc). x may be a slice of a larger tensor (the x half of in_proj's output), so it is
// given with its batch stride; its channel stride is seqlen. xc and xs are contiguous.
#pragma once

#include <cuda_runtime_api.h>

namespace ch09::gpu {

constexpr int kMaxConvWidth = 8;

void conv1d_silu_forward(const float* x, long long x_batch_stride, const float* w, const float* bias, float* xc,
                         float* xs, int batch, int channels, int seqlen, int width, cudaStream_t stream = nullptr);

// From dxs: dxc (batch, channels, seqlen) scratch, written; dx (strided like x), written;
// dw (channels, width) and dbias (channels), written.
void conv1d_silu_backward(const float* dxs, const float* xc, const float* x, long long x_batch_stride, const float* w,
                          float* dxc, float* dx, long long dx_batch_stride, float* dw, float* dbias, int batch,
                          int channels, int seqlen, int width, cudaStream_t stream = nullptr);

}  // namespace ch09::gpu

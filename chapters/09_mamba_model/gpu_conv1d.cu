// gpu_conv1d.cu: the block's causal depthwise convolution (width 4) and SiLU.
//
// Depthwise means every channel has its own 4 taps and channels never mix, so one thread per
// output (b, c, t) reads 4 neighbours in time; a warp's reads overlap and hit cache. No shared
// memory tile: with 4 taps the reuse it would buy is small, and the kernel stays a few lines.
#include "gpu_conv1d.hpp"

#include "cuda_check.hpp"
#include "gpu_launch.cuh"

#include <stdexcept>
#include <string>

namespace ch09::gpu {

namespace {

struct Position {
  long long b;
  int c, t;
};

__device__ inline Position position_of(long long i, int channels, int seqlen) {
  return {i / (static_cast<long long>(channels) * seqlen), static_cast<int>((i / seqlen) % channels),
          static_cast<int>(i % seqlen)};
}

// [snippet:conv1d_forward]
__global__ void conv1d_silu_forward_kernel(const float* x, long long x_batch_stride, const float* w, const float* bias,
                                           float* xc, float* xs, int batch, int channels, int seqlen, int width) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= static_cast<long long>(batch) * channels * seqlen) return;
  const Position p = position_of(i, channels, seqlen);
  const float* row = x + p.b * x_batch_stride + static_cast<long long>(p.c) * seqlen;
  float acc = bias[p.c];
  for (int k = 0; k < width; ++k) {
    const int s = p.t - (width - 1) + k;  // causal: only the present and the past
    if (s >= 0) acc += w[p.c * width + k] * row[s];
  }
  xc[i] = acc;
  xs[i] = silu(acc);
}
// [/snippet:conv1d_forward]

// dx[t] = sum_k w[k] dxc[t + (W-1) - k]: the transposed convolution looks into the future by the
// same taps. dxc = dxs silu'(xc) is recomputed for each of the W neighbours instead of being read
// from a first pass: it is two loads and a few flops, and the kernel writes dxc for its own t once
// for the weight gradient below.
__global__ void conv1d_silu_backward_input_kernel(const float* dxs, const float* xc, const float* w, float* dxc,
                                                  float* dx, long long dx_batch_stride, int batch, int channels,
                                                  int seqlen, int width) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= static_cast<long long>(batch) * channels * seqlen) return;
  const Position p = position_of(i, channels, seqlen);
  const long long row = i - p.t;  // (b, c, 0) in the contiguous tensors
  float acc = 0.0f;
  for (int k = 0; k < width; ++k) {
    const int s = p.t + (width - 1) - k;
    if (s < seqlen) acc += w[p.c * width + k] * dxs[row + s] * silu_derivative(xc[row + s]);
  }
  dxc[i] = dxs[i] * silu_derivative(xc[i]);
  dx[p.b * dx_batch_stride + static_cast<long long>(p.c) * seqlen + p.t] = acc;
}

// dw[c, k] = sum_{b,t} dxc[b, c, t] x[b, c, t - (W-1) + k] and dbias[c] = sum_{b,t} dxc: sums over
// every position of one channel, so one block per channel sums W + 1 numbers in a fixed order.
__global__ void conv1d_backward_weight_kernel(const float* dxc, const float* x, long long x_batch_stride, float* dw,
                                              float* dbias, int batch, int channels, int seqlen, int width) {
  __shared__ float scratch[32];
  const int c = blockIdx.x;
  float tap[kMaxConvWidth] = {};
  float bias_sum = 0.0f;
  for (int b = 0; b < batch; ++b) {
    const float* g = dxc + (static_cast<long long>(b) * channels + c) * seqlen;
    const float* row = x + b * x_batch_stride + static_cast<long long>(c) * seqlen;
    for (int t = threadIdx.x; t < seqlen; t += blockDim.x) {
      bias_sum += g[t];
#pragma unroll
      for (int k = 0; k < kMaxConvWidth; ++k) {
        const int s = t - (width - 1) + k;
        if (k < width && s >= 0) tap[k] += g[t] * row[s];
      }
    }
  }
#pragma unroll
  for (int k = 0; k < kMaxConvWidth; ++k) {
    if (k >= width) break;
    const float sum = block_sum(tap[k], scratch);
    if (threadIdx.x == 0) dw[c * width + k] = sum;
  }
  bias_sum = block_sum(bias_sum, scratch);
  if (threadIdx.x == 0) dbias[c] = bias_sum;
}

void check_width(int width) {
  if (width < 1 || width > kMaxConvWidth)
    throw std::invalid_argument("conv1d: width " + std::to_string(width) + " outside [1, " +
                                std::to_string(kMaxConvWidth) + "]");
}

}  // namespace

void conv1d_silu_forward(const float* x, long long x_batch_stride, const float* w, const float* bias, float* xc,
                         float* xs, int batch, int channels, int seqlen, int width, cudaStream_t stream) {
  check_width(width);
  const long long n = static_cast<long long>(batch) * channels * seqlen;
  if (n == 0) return;
  conv1d_silu_forward_kernel<<<blocks_for(n), kThreads, 0, stream>>>(x, x_batch_stride, w, bias, xc, xs, batch,
                                                                     channels, seqlen, width);
  CUDA_CHECK_LAUNCH();
}

void conv1d_silu_backward(const float* dxs, const float* xc, const float* x, long long x_batch_stride, const float* w,
                          float* dxc, float* dx, long long dx_batch_stride, float* dw, float* dbias, int batch,
                          int channels, int seqlen, int width, cudaStream_t stream) {
  check_width(width);
  const long long n = static_cast<long long>(batch) * channels * seqlen;
  if (n > 0) {
    conv1d_silu_backward_input_kernel<<<blocks_for(n), kThreads, 0, stream>>>(dxs, xc, w, dxc, dx, dx_batch_stride,
                                                                              batch, channels, seqlen, width);
    CUDA_CHECK_LAUNCH();
  }
  if (channels > 0) {
    conv1d_backward_weight_kernel<<<channels, kThreads, 0, stream>>>(dxc, x, x_batch_stride, dw, dbias, batch, channels,
                                                                     seqlen, width);
    CUDA_CHECK_LAUNCH();
  }
}

}  // namespace ch09::gpu

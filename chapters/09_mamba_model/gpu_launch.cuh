// gpu_launch.cuh: what chapter 09's small kernels share: the block size, the grid that covers
// n elements with one thread each, and a deterministic sum over a block.
//
// Every reduction in this chapter's kernels goes through block_sum: a fixed tree (warp
// shuffles, then one warp over the warps' partial sums), so the same inputs give the same
// bits run after run; none of these kernels uses float atomics. The model calls chapter 08's
// scan backward with its deterministic flag too (gpu_model.cpp), so a training run from one
// seed repeats bit for bit on the same GPU and toolkit.
#pragma once

#include <cuda_runtime.h>

namespace ch09::gpu {

constexpr int kThreads = 256;

inline unsigned blocks_for(long long n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

__device__ inline float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

// The sum of v over the block (blockDim.x a multiple of 32, at most 1024), returned to every
// thread. `scratch` holds 32 floats; the call ends with a barrier so it can be reused at once.
__device__ inline float block_sum(float v, float* scratch) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  v = warp_sum(v);
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  float total = lane < warps ? scratch[lane] : 0.0f;
  total = warp_sum(total);
  __syncthreads();
  return total;
}

__device__ inline float sigmoid(float x) { return 1.0f / (1.0f + expf(-x)); }
__device__ inline float silu(float x) { return x * sigmoid(x); }
// d silu / dx = σ(x) (1 + x (1 - σ(x)))
__device__ inline float silu_derivative(float x) {
  const float s = sigmoid(x);
  return s * (1.0f + x * (1.0f - s));
}

}  // namespace ch09::gpu

// reductions.cuh: how every backward sums the parameter gradients without float atomics.
// A (b, d) block writes its own partial sums into the workspace; finish_parameter_gradients()
// then adds them up in a fixed order (over the batch for A, D, delta_bias and constant B, C;
// over the channels of a group for variable B, C). Only variable B and C without the
// deterministic flag take the faster road of atomicAdd straight into dB and dC.
#pragma once

#include "device_math.cuh"
#include "scan_args.hpp"

#include <cstddef>

namespace selective_scan::detail {

// Offsets, in floats, of each partial-sum array in the workspace (0 size when unused).
struct WorkspaceLayout {
  std::int64_t dA, dB_const, dC_const, dD, ddelta_bias, dB_var, dC_var, total;
};
WorkspaceLayout workspace_layout(const ScanArgs& args, bool is_complex);

// Zeroes dB / dC where the kernel adds into them with atomics.
void prepare_time_gradients(const ScanArgs& args, const WorkspaceLayout& layout, bool is_complex, cudaStream_t stream);
void finish_parameter_gradients(const ScanArgs& args, const WorkspaceLayout& layout, bool is_complex,
                                cudaStream_t stream);

// [snippet:time_gradient]
// Channel (b, d)'s share of dB or dC at state n, time t (a variable B or C).
template <class S, class Channel>
__device__ __forceinline__ void add_time_gradient(const ScanArgs& args, float* gradient, std::int64_t partial_offset,
                                                  const Channel& ch, int n, std::int64_t t, S value) {
  if (args.deterministic) {
    float* partial = static_cast<float*>(args.workspace) + partial_offset;
    store_state(partial, (ch.bd * args.dstate + n) * args.seqlen + t, value);
  } else {
    const std::int64_t group = ch.d / args.dims_per_group;
    const std::int64_t i = ((ch.b * args.groups + group) * args.dstate + n) * args.seqlen + t;
    if constexpr (sizeof(S) == sizeof(float)) {
      atomicAdd(gradient + i, value);
    } else {
      atomicAdd(gradient + 2 * i, value.re);
      atomicAdd(gradient + 2 * i + 1, value.im);
    }
  }
}
// [/snippet:time_gradient]

// The sum of a warp's 32 values by a butterfly: the same order on every run.
__device__ __forceinline__ float warp_sum_fixed_order(float x) {
  for (int offset = 16; offset > 0; offset /= 2) x += __shfl_xor_sync(0xffffffffu, x, offset);
  return x;
}

// Sums K values over the block: a butterfly in each warp, then the warps' sums added in order
// by thread 0, which alone gets the totals. `scratch` holds K floats per warp. Same order on
// every run, so the sums are bit-identical run to run.
template <int kThreads, int K>
__device__ void block_sum_fixed_order(float (&values)[K], float* scratch) {
  constexpr int kWarps = kThreads / 32;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    float x = values[k];
    for (int offset = 16; offset > 0; offset /= 2) x += __shfl_xor_sync(0xffffffffu, x, offset);
    if (lane == 0) scratch[warp * K + k] = x;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      float total = 0;
      for (int w = 0; w < kWarps; ++w) total += scratch[w * K + k];
      values[k] = total;
    }
  }
  __syncthreads();
}

}  // namespace selective_scan::detail

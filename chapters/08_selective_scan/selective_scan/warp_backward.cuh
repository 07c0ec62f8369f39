// What the backward kernels of versions 4 and 5 share: a thread holds K states of a channel, P
// lanes a channel, several channels a warp. The reduce-scatter butterfly that sums over a
// channel's lanes (version 5's forward sums its outputs with it too), and the warp's coalesced
// dB/dC adds of a tile.
#pragma once

#include "scan_args.hpp"

#include <cstdint>

namespace selective_scan::detail {

// [snippet:reduce_scatter]
// A butterfly over the kN lanes lane ^ (m * kStride), m < kN, each holding v[0 .. kN): returns
// the sum over those lanes of v[r], where r = (lane / kStride) % kN. At each stage a lane keeps
// half of its values, sends the other half to its partner and adds what the partner sent back.
// (A stage a template: with the half a loop variable, nvcc left a 16-value stage's loop rolled
// and v in local memory.)
template <int kHalf, int kStride, int kN>
__device__ __forceinline__ void butterfly_stage(float (&v)[kN], int r) {
  const bool upper = r & kHalf;
#pragma unroll
  for (int i = 0; i < kHalf; ++i) {
    const float keep = upper ? v[i + kHalf] : v[i];
    const float send = upper ? v[i] : v[i + kHalf];
    v[i] = keep + __shfl_xor_sync(0xffffffffu, send, kHalf * kStride);
  }
  if constexpr (kHalf > 1) butterfly_stage<kHalf / 2, kStride>(v, r);
}
template <int kN, int kStride>
__device__ __forceinline__ float reduce_scatter(float (&v)[kN]) {
  if constexpr (kN > 1) butterfly_stage<kN / 2, kStride>(v, (threadIdx.x % 32 / kStride) % kN);
  return v[0];
}
// [/snippet:reduce_scatter]

// The warp's dB and dC of one tile of `valid` steps from t0, summed over its channels in
// time_gradients[0 = B, 1 = C][state][step]: a lane a step, 32 consecutive addresses an add.
template <class Channel, int kRows, int kColumns>
__device__ __forceinline__ void add_tile_time_gradients(const ScanArgs& args, const Channel& ch, std::int64_t t0,
                                                        int valid, bool B_var, bool C_var,
                                                        const float (&time_gradients)[2][kRows][kColumns]) {
  const int lane = threadIdx.x % 32;
  if (lane >= valid) return;
  const std::int64_t group = ch.d / args.dims_per_group;
  for (int n = 0; n < args.dstate; ++n) {
    const std::int64_t i = ((ch.b * args.groups + group) * args.dstate + n) * args.seqlen + t0 + lane;
    if (B_var) atomicAdd(args.dB + i, time_gradients[0][n][lane]);
    if (C_var) atomicAdd(args.dC + i, time_gradients[1][n][lane]);
  }
}

}  // namespace selective_scan::detail

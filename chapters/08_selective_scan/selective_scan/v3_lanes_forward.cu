// Version 3, forward: one lane per state. A warp holds 32 / P channels of P >= dstate lanes
// each (P a power of two), and every lane walks time step by step for its own state, as in
// version 1 -- but now a warp's lanes are its channel's states, so nothing waits on another warp:
// no block-wide barrier, no scan. A tile of 32 steps at a time is staged so that each value is
// loaded and transformed once:
//   - delta (bias, softplus) and delta u of the tile's steps, one step per lane, into shared memory;
//   - B and C of the lane's state, 8 steps at a time with one vector load where aligned;
//   - each step's C h into shared memory, then the sum over states done by the lanes, one
//     output step each, with D u and the gate, written coalesced.
// The backward of version 3 is version 2's: the chunk states are the same.
#include "check.hpp"
#include "device_math.cuh"
#include "sequence_access.cuh"
#include "step_groups.cuh"
#include "tile.hpp"

#include <algorithm>
#include <cstdint>

namespace selective_scan::detail {
namespace {

constexpr int kWarps = 4;      // per block
constexpr int kLoadSteps = 8;  // steps of B and C loaded at once

// [snippet:lanes_forward]
template <class Input, bool kComplex, int kLanesPerChannel>
__global__ __launch_bounds__(kWarps * 32) void lanes_forward_kernel(ScanArgs args) {
  using S = State<kComplex>;
  constexpr int kChannelsPerWarp = 32 / kLanesPerChannel;
  struct Step {
    float delta, delta_u;
  };
  __shared__ Step steps[kWarps][kChannelsPerWarp][kTile];  // the tile's delta, delta u
  __shared__ float terms[kWarps][kTile][32 + 1];           // C h of each step and lane
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int slot = lane / kLanesPerChannel, n = lane % kLanesPerChannel;  // channel slot, state
  const bool has_state = n < args.dstate;
  const std::int64_t channels = args.batch * args.dim;

  for (std::int64_t first = (std::int64_t(blockIdx.x) * kWarps + warp) * kChannelsPerWarp; first < channels;
       first += std::int64_t(gridDim.x) * kWarps * kChannelsPerWarp) {
    const std::int64_t bd = first + slot;
    const bool has_channel = bd < channels;
    Channel<Input, kComplex> ch(args, has_channel ? bd : first);
    const bool active = has_channel && has_state;
    S h = state_zero<S>();
    if (active) {
      ch.at_state(n);
      if (args.initial_state) h = load_state<S>(args.initial_state, ch.state_index(n));
    }
    const Input* B_row = ch.B_var && active ? ch.B_var + n * args.B.state_stride : nullptr;
    const Input* C_row = ch.C_var && active ? ch.C_var + n * args.C.state_stride : nullptr;

    for (std::int64_t t0 = 0; t0 < args.seqlen; t0 += kTile) {
      const int valid = int(std::min<std::int64_t>(kTile, args.seqlen - t0));
      // Stage delta and delta u: a channel's lanes share its steps (n, n + P, ...). Steps past
      // the end stage as (0, 0): Abar = 1 and no input, the identity, so h is left as it is.
      for (int k = n; k < kTile; k += kLanesPerChannel) {
        Step s{0.f, 0.f};
        if (has_channel && k < valid) {
          const float delta = ch.delta_at(t0 + k);
          s = {delta, delta * to_float(ch.u[t0 + k])};
        }
        steps[warp][slot][k] = s;
      }
      __syncwarp();
      // Walk the tile: this lane's state, one step after another.
      for (int g = 0; g < kTile; g += kLoadSteps) {
        if (g >= valid) break;
        S B[kLoadSteps], C[kLoadSteps];
        if (B_row) load_steps<kLoadSteps>(B_row, t0 + g, args.seqlen, B);
        if (C_row) load_steps<kLoadSteps>(C_row, t0 + g, args.seqlen, C);
#pragma unroll
        for (int i = 0; i < kLoadSteps; ++i) {
          const Step s = steps[warp][slot][g + i];
          h = exp_delta_A(s.delta, ch.A) * h + s.delta_u * (B_row ? B[i] : ch.B_const);
          terms[warp][g + i][lane] = has_state ? output_part((C_row ? C[i] : ch.C_const) * h) : 0.f;
        }
      }
      if (active) {
        // Chunk states: after steps kChunkLength - 1, 2 kChunkLength - 1, ... and the last.
        const std::int64_t t_end = t0 + valid - 1;
        if ((t_end + 1) % kChunkLength == 0 || t_end + 1 == args.seqlen)
          store_state(args.chunk_states, ch.chunk_state_index(t_end / kChunkLength, n), h);
      }
      __syncwarp();
      // Finish the tile: a channel's lanes share its steps again, each summing one step's terms
      // over the states, adding D u and the gate; consecutive lanes write consecutive steps.
      if (has_channel) {
        for (int k = n; k < valid; k += kLanesPerChannel) {
          float y = 0;
          for (int m = 0; m < args.dstate; ++m) y += terms[warp][k][slot * kLanesPerChannel + m];
          const std::int64_t t = t0 + k;
          y += ch.D * to_float(ch.u[t]);
          ch.template sequence<Input>(args.out)[t] = from_float<Input>(y);
          if (ch.z) ch.template sequence<Input>(args.out_z)[t] = from_float<Input>(y * silu(to_float(ch.z[t])));
        }
      }
      __syncwarp();
    }
    if (active && args.last_state) store_state(args.last_state, ch.state_index(n), h);
  }
}
// [/snippet:lanes_forward]

template <class Input, bool kComplex, int kLanesPerChannel>
void launch(const ScanArgs& args, cudaStream_t stream) {
  constexpr std::int64_t kChannelsPerBlock = kWarps * (32 / kLanesPerChannel);
  const std::int64_t blocks = (args.batch * args.dim + kChannelsPerBlock - 1) / kChannelsPerBlock;
  lanes_forward_kernel<Input, kComplex, kLanesPerChannel>
      <<<unsigned(std::min<std::int64_t>(blocks, 1 << 30)), kWarps * 32, 0, stream>>>(args);
  SELECTIVE_SCAN_CHECK_LAUNCH();
}

}  // namespace

template <class Input, bool kComplex>
void lanes_forward(const ScanArgs& args, cudaStream_t stream) {
  // The smallest power of two that holds dstate: 16 for Mamba's 16 states, two channels a warp.
  if (args.dstate <= 2)
    launch<Input, kComplex, 2>(args, stream);
  else if (args.dstate <= 4)
    launch<Input, kComplex, 4>(args, stream);
  else if (args.dstate <= 8)
    launch<Input, kComplex, 8>(args, stream);
  else if (args.dstate <= 16)
    launch<Input, kComplex, 16>(args, stream);
  else
    launch<Input, kComplex, 32>(args, stream);
}

template void lanes_forward<float, false>(const ScanArgs&, cudaStream_t);
template void lanes_forward<float, true>(const ScanArgs&, cudaStream_t);
template void lanes_forward<__half, false>(const ScanArgs&, cudaStream_t);
template void lanes_forward<__half, true>(const ScanArgs&, cudaStream_t);
template void lanes_forward<__nv_bfloat16, false>(const ScanArgs&, cudaStream_t);
template void lanes_forward<__nv_bfloat16, true>(const ScanArgs&, cudaStream_t);

}  // namespace selective_scan::detail

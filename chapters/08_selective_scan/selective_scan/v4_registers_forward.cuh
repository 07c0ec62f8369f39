// Version 4, forward: a thread holds K states of one channel in registers. Version 3 gave each
// state a lane, so every step of every state paid for a shared-memory load of (delta, delta u),
// a shared-memory store of C h, and a divergent decay. Here P = dstate / K lanes share a
// channel (for Mamba's 16 states: K = 4 and four lanes, or K = 2 and eight; the launcher says
// which), and per state and step only the arithmetic is left:
//   y = delta A log2(e);  Abar = 2^y (decay_power: no branch);  h = Abar h + (delta u) B;  y_t += C h
// The rest is shared by the K states: one 16-byte shared load gives two steps' (delta, delta u),
// one vector load gives four steps of a B or C row, and C h is summed over the thread's K states
// in registers before one 16-byte shared store per four steps. A tile of 32 steps at a time:
//   - staging: lane j of a channel takes steps j, j + P, ... of delta (bias, softplus) and u;
//   - walking: each thread its K states through the tile, four steps a group;
//   - finishing: the same lane sums its staged steps' partial outputs over the P lanes, adds
//     D u and the gate, and writes them.
// The channels of a warp are neighbours, so they usually read the same B and C rows (one batch,
// one group). Then the warp stages a tile of those rows in shared memory once, converted to
// fp32, instead of each channel loading (and converting) its own copy: the L1 traffic for B and
// C drops by the channels a warp holds, and fp16/bf16 rows cost no conversion per state.
// Only a few warps share a scheduler (one thread per K states leaves few threads), so nothing
// may wait for memory in the open: the next tile's delta, u, z and rows (or, without staging,
// the next group's B and C) are loaded before the current ones are used.
#pragma once

#include "check.hpp"
#include "device_math.cuh"
#include "sequence_access.cuh"
#include "staged_rows.cuh"
#include "step_groups.cuh"

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace selective_scan::detail {
namespace registers_forward_impl {

constexpr int kWarps = 4;            // per block
constexpr int kPartRow = kTile + 4;  // a lane's partial outputs of a tile, padded against bank conflicts

struct NoStagedRows {};

// One channel's walk through its sequence, by the P lanes that share it: this thread's K states
// (from n0) in registers with their constants, the channel's rows, and its rows of the warp's
// shared memory. A tile of kTile steps is fetched a tile ahead, staged, walked four steps at a
// time and finished.
template <class Input, bool kComplex, int K, int P, bool kSharedRows>
struct ChannelWalk {
  using S = State<kComplex>;
  static constexpr int kChannelsPerWarp = 32 / P;
  static constexpr int kPerStep = kComplex ? 2 : 1;  // input values per step of a B or C row
  static constexpr std::size_t kVector = sizeof(StepVector<kGroup, S, Input>);
  using Staged = std::conditional_t<kSharedRows, StagedRows<K, P>, NoStagedRows>;
  using Rows = TileRows<Input, kSharedRows ? K * P : 8>;  // (a small unused one without)
  // B and C of four steps.
  struct GroupBC {
    S B[K][kGroup], C[K][kGroup];
  };
  // A tile's delta, u and z as loaded, for the steps this lane stages.
  struct TileInputs {
    Input delta[kChannelsPerWarp], u[kChannelsPerWarp], z[kChannelsPerWarp];
  };

  const ScanArgs& args;
  float2* const steps;  // the channel's (delta, delta u) of the tile, two steps to a 16-byte load
  float* const parts;   // the partial outputs (C h over a thread's K states) of each lane and step
  Staged& staged;       // with kSharedRows: the tile's B and C rows, once per warp
  const int j, n0;      // lane in the channel; this thread's states: n0 ... n0 + K - 1
  const bool has_channel;
  const Channel<Input, kComplex> ch;
  // Per state: A2 (A scaled for decay_power), h, constant B and C. States past dstate keep
  // A = B = C = 0, so their h stays 0 and they add nothing.
  S A2[K], h[K], B_const[K], C_const[K];
  int states_here;
  const Input* B_rows;
  const Input* C_rows;
  bool vector_rows;  // whole tiles of rows aligned to their vectors take the walk without checks

  __device__ __forceinline__ ChannelWalk(const ScanArgs& a, float2* channel_steps, float* channel_parts,
                                         Staged& warp_rows, int lane_in_channel, std::int64_t bd, bool has)
      : args(a),
        steps(channel_steps),
        parts(channel_parts),
        staged(warp_rows),
        j(lane_in_channel),
        n0(lane_in_channel * K),
        has_channel(has),
        ch(a, bd) {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const int n = n0 + k;
      A2[k] = h[k] = B_const[k] = C_const[k] = state_zero<S>();
      if (!has_channel || n >= args.dstate) continue;
      A2[k] = log2_scaled(load_state<S>(args.A, ch.d * args.A_dim_stride + n));
      if (!args.B.variable)
        B_const[k] = load_state<S>(static_cast<const float*>(args.B.data), ch.d * args.B.dim_stride + n);
      if (!args.C.variable)
        C_const[k] = load_state<S>(static_cast<const float*>(args.C.data), ch.d * args.C.dim_stride + n);
      if (args.initial_state) h[k] = load_state<S>(args.initial_state, ch.state_index(n));
    }
    states_here = has_channel ? std::max(0, std::min(K, args.dstate - n0)) : 0;
    B_rows = ch.B_var ? ch.B_var + n0 * args.B.state_stride : nullptr;
    C_rows = ch.C_var ? ch.C_var + n0 * args.C.state_stride : nullptr;
    const auto aligned = [](const Input* rows, std::int64_t stride) {
      return !rows || (reinterpret_cast<std::uintptr_t>(rows) % kVector == 0 && stride * sizeof(Input) % kVector == 0);
    };
    vector_rows = aligned(B_rows, args.B.state_stride) && aligned(C_rows, args.C.state_stride);
  }

  // B and C of four steps from step g of the tile at t0 (kChecked: the group may be misaligned
  // or run past the end).
  template <bool kChecked>
  __device__ __forceinline__ void load_group(std::int64_t t0, int g, GroupBC& bc) const {
#pragma unroll
    for (int k = 0; k < K; ++k) {
#pragma unroll
      for (int s = 0; s < kGroup; ++s) bc.B[k][s] = B_const[k], bc.C[k][s] = C_const[k];
      if (k >= states_here) continue;
      if constexpr (kChecked) {
        if (B_rows) load_steps<kGroup>(B_rows + k * args.B.state_stride, t0 + g, args.seqlen, bc.B[k]);
        if (C_rows) load_steps<kGroup>(C_rows + k * args.C.state_stride, t0 + g, args.seqlen, bc.C[k]);
      } else {
        if (B_rows) load_aligned_steps<kGroup>(B_rows + k * args.B.state_stride + (t0 + g) * kPerStep, bc.B[k]);
        if (C_rows) load_aligned_steps<kGroup>(C_rows + k * args.C.state_stride + (t0 + g) * kPerStep, bc.C[k]);
      }
    }
  }
  // With kSharedRows: B and C of four steps from the warp's staged rows.
  __device__ __forceinline__ void read_group(int g, GroupBC& bc) const {
    if constexpr (kSharedRows) {
      float B4[K][kGroup], C4[K][kGroup];
      read_rows(staged.B, g, j, B4);
      read_rows(staged.C, g, j, C4);
#pragma unroll
      for (int k = 0; k < K; ++k) {
#pragma unroll
        for (int s = 0; s < kGroup; ++s) {
          bc.B[k][s] = ch.B_var ? B4[k][s] : B_const[k];
          bc.C[k][s] = ch.C_var ? C4[k][s] : C_const[k];
        }
      }
    }
  }

  // [snippet:registers_walk]
  // Four steps of the walk from step g of the tile.
  __device__ __forceinline__ void walk_group(int g, const GroupBC& bc) {
    float y[kGroup] = {};
#pragma unroll
    for (int s = 0; s < kGroup; s += 2) {
      const float4 two = *reinterpret_cast<const float4*>(&steps[g + s]);
      const float delta[2] = {two.x, two.z}, delta_u[2] = {two.y, two.w};
#pragma unroll
      for (int e = 0; e < 2; ++e) {
#pragma unroll
        for (int k = 0; k < K; ++k) {
          h[k] = exp2_delta_A<Input>(delta[e], A2[k]) * h[k] + delta_u[e] * bc.B[k][s + e];
          y[s + e] += output_part(bc.C[k][s + e] * h[k]);
        }
      }
    }
    *reinterpret_cast<float4*>(&parts[j * kPartRow + g]) = {y[0], y[1], y[2], y[3]};
  }
  // [/snippet:registers_walk]

  // With kSharedRows, the lanes of the warp load a tile's rows together (has_channel is the same
  // for the whole warp then) and stage them for every channel of the warp.
  __device__ __forceinline__ void fetch_rows_of(std::int64_t t0, Rows& rows) const {
    fetch_rows(ch.B_var, args.B.state_stride, ch.C_var, args.C.state_stride, has_channel ? args.dstate : 0, t0,
               args.seqlen, rows);
  }
  // A tile's delta, u and z, for the steps j, j + P, ... that this lane stages.
  __device__ __forceinline__ void fetch(std::int64_t t0, TileInputs& in) const {
#pragma unroll
    for (int i = 0; i < kChannelsPerWarp; ++i) {
      const std::int64_t t = t0 + j + P * i;
      in.delta[i] = in.u[i] = in.z[i] = Input{};
      if (!has_channel || t >= args.seqlen) continue;
      in.delta[i] = ch.delta[t];
      in.u[i] = ch.u[t];
      if (ch.z) in.z[i] = ch.z[t];
    }
  }
  // Stage (delta, delta u). Steps past the end are (0, 0): Abar = 1 and no input, so h is left
  // as it is.
  __device__ __forceinline__ void stage(const TileInputs& now, int valid) {
#pragma unroll
    for (int i = 0; i < kChannelsPerWarp; ++i) {
      const int s = j + P * i;
      float2 v{0.f, 0.f};
      if (has_channel && s < valid) {
        const float delta = ch.delta_from_raw(now.delta[i]);
        v = {delta, delta * to_float(now.u[i])};
      }
      steps[s] = v;
    }
  }
  // Walk the tile at t0, four steps at a time.
  __device__ __forceinline__ void walk_tile(std::int64_t t0, int valid) {
    if constexpr (kSharedRows) {
      // Staged rows are 0 past the end, like the steps: the whole tile is walked.
#pragma unroll
      for (int g = 0; g < kTile; g += kGroup) {
        GroupBC bc;
        read_group(g, bc);
        walk_group(g, bc);
      }
    } else if (valid == kTile && vector_rows) {
      // Whole tile: the next group's B and C are loaded before this group is walked.
      GroupBC bc[2];
      load_group<false>(t0, 0, bc[0]);
#pragma unroll
      for (int g = 0; g < kTile; g += kGroup) {
        if (g + kGroup < kTile) load_group<false>(t0, g + kGroup, bc[(g / kGroup + 1) % 2]);
        walk_group(g, bc[(g / kGroup) % 2]);
      }
    } else {
      for (int g = 0; g < valid; g += kGroup) {
        GroupBC bc;
        load_group<true>(t0, g, bc);
        walk_group(g, bc);
      }
    }
  }
  // Chunk states: after steps kChunkLength - 1, 2 kChunkLength - 1, ... and the last.
  __device__ __forceinline__ void store_chunk_states(std::int64_t t0, int valid) const {
    const std::int64_t t_end = t0 + valid - 1;
    if ((t_end + 1) % kChunkLength == 0 || t_end + 1 == args.seqlen) {
#pragma unroll
      for (int k = 0; k < K; ++k)
        if (k < states_here) store_state(args.chunk_states, ch.chunk_state_index(t_end / kChunkLength, n0 + k), h[k]);
    }
  }
  // Finish the steps this lane staged: the sum over the channel's lanes, D u and the gate.
  __device__ __forceinline__ void finish(const TileInputs& now, std::int64_t t0, int valid) const {
#pragma unroll
    for (int i = 0; i < kChannelsPerWarp; ++i) {
      const int s = j + P * i;
      if (!has_channel || s >= valid) continue;
      float y = ch.D * to_float(now.u[i]);
#pragma unroll
      for (int q = 0; q < P; ++q) y += parts[q * kPartRow + s];
      const std::int64_t t = t0 + s;
      ch.template sequence<Input>(args.out)[t] = from_float<Input>(y);
      if (ch.z) ch.template sequence<Input>(args.out_z)[t] = from_float<Input>(y * silu(to_float(now.z[i])));
    }
  }

  // The sequence, a tile at a time. Only a few warps share a scheduler, so the next tile's
  // delta, u, z and rows are loaded before this one is walked: their trip to memory overlaps
  // the arithmetic, where each tile waited for its own otherwise.
  __device__ __forceinline__ void walk_sequence() {
    TileInputs next;
    fetch(0, next);
    Rows next_rows;
    if constexpr (kSharedRows) fetch_rows_of(0, next_rows);
    // [snippet:registers_prefetch]
    for (std::int64_t t0 = 0; t0 < args.seqlen; t0 += kTile) {
      const int valid = int(std::min<std::int64_t>(kTile, args.seqlen - t0));
      const TileInputs now = next;
      if (t0 + kTile < args.seqlen) fetch(t0 + kTile, next);
      if constexpr (kSharedRows) {
        stage_rows(next_rows, staged);
        if (t0 + kTile < args.seqlen) fetch_rows_of(t0 + kTile, next_rows);
      }
      // [/snippet:registers_prefetch]
      stage(now, valid);
      __syncwarp();
      walk_tile(t0, valid);
      store_chunk_states(t0, valid);
      __syncwarp();
      finish(now, t0, valid);
      __syncwarp();
    }
    if (args.last_state) {
#pragma unroll
      for (int k = 0; k < K; ++k)
        if (k < states_here) store_state(args.last_state, ch.state_index(n0 + k), h[k]);
    }
  }
};

template <class Input, bool kComplex, int K, int P, bool kSharedRows>
__global__ __launch_bounds__(kWarps * 32) void registers_forward_kernel(ScanArgs args) {
  constexpr int kChannelsPerWarp = 32 / P;
  static_assert(!kSharedRows || (!kComplex && K * P == 16), "rows are staged for 16 real states");
  using Walk = ChannelWalk<Input, kComplex, K, P, kSharedRows>;
  // A row of kTile + P steps puts the staging stores of the channels of a half-warp on
  // different banks; the +4 per channel of the partial outputs keeps the finishing reads free of
  // bank conflicts.
  __shared__ __align__(16) float2 steps[kWarps][kChannelsPerWarp][kTile + P];
  __shared__ __align__(16) float parts[kWarps][kChannelsPerWarp][P * kPartRow + 4];
  __shared__ typename Walk::Staged staged[kWarps];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int slot = lane / P;  // the channel's place in the warp
  const std::int64_t channels = args.batch * args.dim;
  for (std::int64_t first = (std::int64_t(blockIdx.x) * kWarps + warp) * kChannelsPerWarp; first < channels;
       first += std::int64_t(gridDim.x) * kWarps * kChannelsPerWarp) {
    // Lanes past the last channel walk the warp's first channel and write nothing.
    const std::int64_t bd = first + slot;
    Walk walk(args, steps[warp][slot], parts[warp][slot], staged[warp], lane % P, bd < channels ? bd : first,
              bd < channels);
    walk.walk_sequence();
  }
}

template <class Input, bool kComplex, int K, int P>
void launch(const ScanArgs& args, cudaStream_t stream) {
  constexpr int kChannelsPerWarp = 32 / P;
  constexpr std::int64_t kChannelsPerBlock = kWarps * kChannelsPerWarp;
  const unsigned blocks =
      unsigned(std::min<std::int64_t>((args.batch * args.dim + kChannelsPerBlock - 1) / kChannelsPerBlock, 1 << 30));
  if constexpr (!kComplex && K * P == 16) {
    // A warp's channels are consecutive; when a group's channels come in whole warps, every
    // warp reads one set of rows, and its lanes can stage them once for all its channels.
    if ((args.B.variable || args.C.variable) && args.dims_per_group % kChannelsPerWarp == 0) {
      registers_forward_kernel<Input, kComplex, K, P, true><<<blocks, kWarps * 32, 0, stream>>>(args);
      SELECTIVE_SCAN_CHECK_LAUNCH();
      return;
    }
  }
  registers_forward_kernel<Input, kComplex, K, P, false><<<blocks, kWarps * 32, 0, stream>>>(args);
  SELECTIVE_SCAN_CHECK_LAUNCH();
}

// States a thread (K) and lanes a channel (P = dstate / K, a power of two). More lanes a
// channel means more warps to hide latency, fewer means less work shared per step. For Mamba's
// 16 states the choice was measured on the anchor shapes (PERFORMANCE.md): K = 4 when there are
// 8192 channels or more, K = 2 below that, in fp32 and bf16 alike.
struct Layout {
  int K, P;
};
inline Layout layout_for(const ScanArgs& args) {
  if (args.dstate <= 16) return args.batch * args.dim < 8192 ? Layout{2, 8} : Layout{4, 4};
  if (args.dstate <= 32) return {4, 8};
  if (args.dstate <= 64) return {4, 16};
  return {8, 32};
}

}  // namespace registers_forward_impl

template <class Input, bool kComplex>
void registers_forward(const ScanArgs& args, cudaStream_t stream) {
  using namespace registers_forward_impl;
  switch (const Layout layout = layout_for(args); layout.P) {
    case 4: return launch<Input, kComplex, 4, 4>(args, stream);
    case 8:
      return layout.K == 2 ? launch<Input, kComplex, 2, 8>(args, stream) : launch<Input, kComplex, 4, 8>(args, stream);
    case 16: return launch<Input, kComplex, 4, 16>(args, stream);
    default: return launch<Input, kComplex, 8, 32>(args, stream);
  }
}

}  // namespace selective_scan::detail

// Version 4, backward: the forward's layout (a thread holds K = 2 of a channel's 16 states, P = 8
// lanes a channel, four channels a warp) run backwards. Per state and step it needs h_{t-1} and
// h_t while the gradient g = dL/dh travels from the last step to the first:
//   g_t = dy_t C_t + q_{t+1},   q_t = Abar_t g_t                (what step t hands to step t - 1)
//   dA += delta_t (Abar_t h_{t-1}) g_t,  dB_t = delta_t u_t g_t,  dC_t = dy_t h_t,
//   ddelta_t = sum over states of g_t (A Abar_t h_{t-1} + u_t B_t),  du_t = D dy_t + delta_t sum g_t B_t
// h runs forwards, so each 2048-step chunk is walked twice before its gradient:
//   1. a sweep from the chunk's stored starting state that keeps h at the start of each 32-step
//      tile (in the workspace, a thread its own: 64 KB a block, which stays in L2; in shared
//      memory it held the multiprocessor to two blocks);
//   2. for each tile, last first: h at its 32 steps into registers from that tile's start, then
//      the walk backwards above, four steps a group.
// Two sums cross lanes, both with a butterfly that leaves each lane one finished value instead
// of every lane every value: over a channel's 8 lanes, the per-step sums over states (ddelta, du);
// over a warp's 4 channels, which share their B and C rows, dB_t and dC_t, so that only one
// channel in four adds them into dB and dC, through shared memory as 32 consecutive steps.
// Real A, up to 16 states, a group's channels in whole warps and the atomic dB and dC only; the
// launcher hands anything else to version 2's backward.
#include "check.hpp"
#include "device_facts.hpp"
#include "device_math.cuh"
#include "reductions.cuh"
#include "sequence_access.cuh"
#include "staged_rows.cuh"
#include "warp_backward.cuh"

#include <algorithm>
#include <cstdint>
#include <string>

namespace selective_scan::detail {
namespace {

constexpr int kWarps = 4;  // per block
constexpr int kThreads = kWarps * 32;
constexpr int K = 2, P = 8;     // states a thread, lanes a channel: 16 states
constexpr int kSlots = 32 / P;  // channels a warp
constexpr int kTilesPerChunk = int(kChunkLength / kTile);
static_assert(kSlots == kGroup, "dB and dC of a group's four steps are spread over the warp's four channels");

// The rows are padded so that the stores of a warp fall on different banks: each array's
// writers are the 32 lanes (slot, j), and a row of kTile + pad shifts slot or state by pad banks.
constexpr std::int64_t kTileStatesPerBlock = std::int64_t(kTilesPerChunk) * K * kThreads;
struct Shared {
  float2 steps[kWarps][kSlots][kTile + P];            // (delta, delta u) of each step
  float dy[kWarps][kSlots][kTile + 8];                // dout, times silu(z) with a gate
  float sums[kWarps][kSlots][2][kTile + 4];           // per step: sum over states of A Abar h_{t-1} g, of g B
  float time_gradients[kWarps][2][K * P][kTile + 2];  // dB_t, dC_t of the warp's rows
  StagedRows<K, P> rows[kWarps];
};

// The per-step values a lane keeps from staging a tile, for finishing its steps afterwards.
struct Kept {
  float u[kSlots], delta[kSlots], slope[kSlots], dy[kSlots];
};

// One channel's backward, walked by its P lanes, in named pieces; every member is inlined into
// the kernel, so the pieces are one walk and their arrays stay in registers.
template <class Input>
struct ChannelWalk {
  const ScanArgs& args;
  Shared& sh;
  const int warp, slot, j, n0;
  float* const h_tile;  // h at the start of tile i of the chunk, state k: h_tile[(i * K + k) * kThreads + threadIdx.x]
  const std::int64_t bd;
  const Channel<Input, false> ch;
  const int states_here;
  float A[K], A2[K], B_const[K], C_const[K], dA[K], dB_sum[K], dC_sum[K], q[K];
  float dD = 0.f, ddelta_bias = 0.f;  // this lane's share: the steps it stages

  __device__ ChannelWalk(const ScanArgs& a, Shared& shared, float* tile_states, std::int64_t channel)
      : args(a),
        sh(shared),
        warp(threadIdx.x / 32),
        slot(threadIdx.x % 32 / P),
        j(threadIdx.x % P),
        n0(j * K),
        h_tile(tile_states),
        bd(channel),
        ch(a, channel),
        states_here(std::max(0, std::min(int{K}, a.dstate - n0))) {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const int n = n0 + k;
      A[k] = A2[k] = B_const[k] = C_const[k] = dA[k] = dB_sum[k] = dC_sum[k] = q[k] = 0.f;
      if (n >= args.dstate) continue;  // A = B = C = 0: g and h stay 0
      A[k] = args.A[ch.d * args.A_dim_stride + n];
      A2[k] = log2_scaled(A[k]);
      if (args.dlast_state) q[k] = args.dlast_state[ch.state_index(n)];  // what enters the last step
      if (!args.B.variable) B_const[k] = static_cast<const float*>(args.B.data)[ch.d * args.B.dim_stride + n];
      if (!args.C.variable) C_const[k] = static_cast<const float*>(args.C.data)[ch.d * args.C.dim_stride + n];
    }
  }

  // One tile's (delta, delta u), and B (and with with_C, C) when variable, into shared memory;
  // given kept, also dy, and the per-step values this lane keeps for finishing its steps.
  __device__ void stage(std::int64_t t0, bool with_C, Kept* kept) {
#pragma unroll
    for (int i = 0; i < kSlots; ++i) {
      const int s = j + P * i;
      const std::int64_t t = t0 + s;
      float2 v{0.f, 0.f};
      float dy = 0.f;
      if (t < args.seqlen) {
        const float x = ch.delta_raw_at(t);
        const bool soft = args.delta_softplus && x <= 20.f;
        const float delta = args.delta_softplus ? softplus(x) : x;
        const float u = to_float(ch.u[t]);
        v = {delta, delta * u};
        if (kept) {
          dy = to_float(ch.dout[t]);
          if (ch.z) {  // dz = dout y silu'(z) with y the forward's pre-gate output; dy = dout silu(z)
            const float z = to_float(ch.z[t]);
            const float y = to_float(ch.template sequence<Input>(args.out)[t]);
            ch.template sequence<Input>(args.dz)[t] = from_float<Input>(dy * y * silu_derivative(z));
            dy *= silu(z);
          }
          kept->u[i] = u, kept->delta[i] = delta, kept->slope[i] = soft ? sigmoid(x) : 1.f;
          dD += dy * u;
        }
      } else if (kept) {
        kept->u[i] = kept->delta[i] = kept->slope[i] = 0.f;
      }
      if (kept) kept->dy[i] = dy;
      sh.steps[warp][slot][s] = v;
      if (kept) sh.dy[warp][slot][s] = dy;
    }
    if (ch.B_var || (with_C && ch.C_var)) {
      TileRows<Input, K * P> rows;
      fetch_rows(ch.B_var, args.B.state_stride, with_C ? ch.C_var : nullptr, args.C.state_stride, args.dstate, t0,
                 args.seqlen, rows);
      stage_rows(rows, sh.rows[warp]);
    }
    __syncwarp();
  }

  // B or C of steps g ... g + 3 for this thread's states: staged rows, or the constant.
  __device__ void read_matrix(const float4 (&staged)[kTile / kGroup][K][P], bool variable, const float (&constant)[K],
                              int g, float (&out)[K][kGroup]) const {
    if (variable) return read_rows(staged, g, j, out);
#pragma unroll
    for (int k = 0; k < K; ++k)
#pragma unroll
      for (int s = 0; s < kGroup; ++s) out[k][s] = constant[k];
  }
  __device__ void read_B(int g, float (&B)[K][kGroup]) const { read_matrix(sh.rows[warp].B, ch.B_var, B_const, g, B); }
  __device__ void read_C(int g, float (&C)[K][kGroup]) const { read_matrix(sh.rows[warp].C, ch.C_var, C_const, g, C); }

  // h through a staged tile, calling visit(step, h) after each step.
  template <class Visit>
  __device__ void walk_forward(float (&h)[K], Visit visit) const {
#pragma unroll
    for (int g = 0; g < kTile; g += kGroup) {
      float B[K][kGroup];
      read_B(g, B);
#pragma unroll
      for (int s = 0; s < kGroup; s += 2) {
        const float4 two = *reinterpret_cast<const float4*>(&sh.steps[warp][slot][g + s]);
        const float delta[2] = {two.x, two.z}, delta_u[2] = {two.y, two.w};
#pragma unroll
        for (int e = 0; e < 2; ++e) {
#pragma unroll
          for (int k = 0; k < K; ++k) h[k] = exp2_delta_A<Input>(delta[e], A2[k]) * h[k] + delta_u[e] * B[k][s + e];
          visit(g + s + e, h);
        }
      }
    }
  }

  // 1. The sweep of chunk c: h at the start of every one of its tiles, from the chunk's stored
  // starting state (or the initial state).
  __device__ void sweep(std::int64_t c, int tiles) {
    float h[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
      h[k] = 0.f;
      if (k >= states_here) continue;
      if (c > 0)
        h[k] = args.chunk_states[ch.chunk_state_index(c - 1, n0 + k)];
      else if (args.initial_state)
        h[k] = args.initial_state[ch.state_index(n0 + k)];
    }
    for (int tile = 0; tile < tiles; ++tile) {
#pragma unroll
      for (int k = 0; k < K; ++k) h_tile[(tile * K + k) * kThreads + threadIdx.x] = h[k];
      if (tile == tiles - 1) break;  // the last tile's end is not needed
      stage(c * kChunkLength + tile * kTile, false, nullptr);
      walk_forward(h, [](int, const float(&)[K]) {});
      __syncwarp();
    }
  }

  // 2. A staged tile walked backwards from the h at its steps: q carried back, dA summed, dB and
  // dC of each step through shared memory, and the two sums over states for du and ddelta.
  __device__ void tile_gradients(const float (&h_start)[K], const float (&h_at)[kTile][K]) {
    // [snippet:registers_backward_step]
#pragma unroll
    for (int g = kTile - kGroup; g >= 0; g -= kGroup) {
      float B[K][kGroup], C[K][kGroup];
      read_B(g, B);
      read_C(g, C);
      const float4 two0 = *reinterpret_cast<const float4*>(&sh.steps[warp][slot][g]);
      const float4 two1 = *reinterpret_cast<const float4*>(&sh.steps[warp][slot][g + 2]);
      const float4 dy4 = *reinterpret_cast<const float4*>(&sh.dy[warp][slot][g]);
      const float delta[kGroup] = {two0.x, two0.z, two1.x, two1.z};
      const float delta_u[kGroup] = {two0.y, two0.w, two1.y, two1.w};
      const float dy[kGroup] = {dy4.x, dy4.y, dy4.z, dy4.w};
      float step_sums[2 * kGroup] = {};  // sum over states of A Abar h_{t-1} g, then of g B
      float dB[K][kGroup], dC[K][kGroup];
#pragma unroll
      for (int s = kGroup - 1; s >= 0; --s) {
        const int t = g + s;
#pragma unroll
        for (int k = 0; k < K; ++k) {
          const float a = exp2_delta_A<Input>(delta[s], A2[k]);
          const float grad = fmaf(dy[s], C[k][s], q[k]);  // g_t
          const float h_in = a * (t > 0 ? h_at[t - 1][k] : h_start[k]);
          const float gh = grad * h_in;
          dA[k] = fmaf(delta[s], gh, dA[k]);
          step_sums[s] = fmaf(A[k], gh, step_sums[s]);
          step_sums[kGroup + s] = fmaf(grad, B[k][s], step_sums[kGroup + s]);
          dB[k][s] = delta_u[s] * grad;
          dC[k][s] = dy[s] * h_at[t][k];
          q[k] = a * grad;
        }
      }
      // Lane j of the channel ends with value j: the sums of step j (j < 4) or of step j - 4.
      const float summed = reduce_scatter<2 * kGroup, 1>(step_sums);
      sh.sums[warp][slot][j / kGroup][g + j % kGroup] = summed;
      // Channel slot s of the warp ends with step g + s of the four channels' dB, dC.
#pragma unroll
      for (int k = 0; k < K; ++k) {
        if (ch.B_var)
          sh.time_gradients[warp][0][n0 + k][g + slot] = reduce_scatter<kGroup, P>(dB[k]);
        else
          for (int s = 0; s < kGroup; ++s) dB_sum[k] += dB[k][s];
        if (ch.C_var)
          sh.time_gradients[warp][1][n0 + k][g + slot] = reduce_scatter<kGroup, P>(dC[k]);
        else
          for (int s = 0; s < kGroup; ++s) dC_sum[k] += dC[k][s];
      }
    }
    // [/snippet:registers_backward_step]
  }

  // The tile's dB and dC into theirs, and the steps this lane staged finished (du and ddelta).
  __device__ void finish_tile(std::int64_t t0, const Kept& kept) {
    __syncwarp();
    const int valid = int(std::min<std::int64_t>(kTile, args.seqlen - t0));
    add_tile_time_gradients(args, ch, t0, valid, ch.B_var, ch.C_var, sh.time_gradients[warp]);
#pragma unroll
    for (int i = 0; i < kSlots; ++i) {
      const int s = j + P * i;
      if (s >= valid) continue;
      const float sum_Ahg = sh.sums[warp][slot][0][s], sum_gB = sh.sums[warp][slot][1][s];
      const float ddelta = kept.slope[i] * (sum_Ahg + kept.u[i] * sum_gB);
      ddelta_bias += ddelta;
      ch.template sequence<Input>(args.du)[t0 + s] = from_float<Input>(ch.D * kept.dy[i] + kept.delta[i] * sum_gB);
      ch.template sequence<Input>(args.ddelta)[t0 + s] = from_float<Input>(ddelta);
    }
    __syncwarp();
  }

  // 2. The tiles of chunk c backwards, each from the h at its start that the sweep kept.
  __device__ void chunk_gradients(std::int64_t c, int tiles) {
    for (int tile = tiles - 1; tile >= 0; --tile) {
      const std::int64_t t0 = c * kChunkLength + tile * kTile;
      Kept kept;
      stage(t0, true, &kept);
      float h[K], h_start[K], h_at[kTile][K];
#pragma unroll
      for (int k = 0; k < K; ++k) h[k] = h_start[k] = h_tile[(tile * K + k) * kThreads + threadIdx.x];
      walk_forward(h, [&](int step, const float(&now)[K]) {
#pragma unroll
        for (int k = 0; k < K; ++k) h_at[step][k] = now[k];
      });
      tile_gradients(h_start, h_at);
      finish_tile(t0, kept);
    }
  }

  // The channel's sums: per state from its thread, per channel over its 8 lanes.
  __device__ void add_channel_sums(float* partials, const WorkspaceLayout& workspace) {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      if (k >= states_here) continue;
      const std::int64_t at = bd * args.dstate + n0 + k;
      partials[workspace.dA + at] = dA[k];
      if (!args.B.variable) partials[workspace.dB_const + at] = dB_sum[k];
      if (!args.C.variable) partials[workspace.dC_const + at] = dC_sum[k];
      if (args.dinitial_state) args.dinitial_state[ch.state_index(n0 + k)] = q[k];
    }
#pragma unroll
    for (int offset = P / 2; offset > 0; offset /= 2) {
      dD += __shfl_xor_sync(0xffffffffu, dD, offset);
      ddelta_bias += __shfl_xor_sync(0xffffffffu, ddelta_bias, offset);
    }
    if (j == 0) {
      partials[workspace.dD + bd] = dD;
      partials[workspace.ddelta_bias + bd] = ddelta_bias;
    }
  }
};

template <class Input>
__global__ __launch_bounds__(kThreads, 3) void registers_backward_kernel(ScanArgs args, WorkspaceLayout workspace) {
  __shared__ Shared sh;
  const int warp = threadIdx.x / 32, slot = threadIdx.x % 32 / P;
  float* partials = static_cast<float*>(args.workspace);
  float* h_tile = partials + workspace.total + blockIdx.x * kTileStatesPerBlock;
  // The launcher makes a group's channels come in whole warps: has_channel, the batch and the
  // group, and so the rows, are the same across a warp.
  for (std::int64_t first = (std::int64_t(blockIdx.x) * kWarps + warp) * kSlots; first < args.batch * args.dim;
       first += std::int64_t(gridDim.x) * kWarps * kSlots) {
    ChannelWalk<Input> walk(args, sh, h_tile, first + slot);
    for (std::int64_t c = args.chunks - 1; c >= 0; --c) {
      const std::int64_t chunk_t0 = c * kChunkLength;
      const int tiles = int((std::min(args.seqlen, chunk_t0 + kChunkLength) - chunk_t0 + kTile - 1) / kTile);
      walk.sweep(c, tiles);
      walk.chunk_gradients(c, tiles);
    }
    walk.add_channel_sums(partials, workspace);
  }
}

// As many blocks as fit on the device at once, each taking channel groups in turn: every block
// needs its own 64 KB of tile states, and more blocks than run at once would only need more.
unsigned grid_size(const ScanArgs& args) {
  const int per_multiprocessor =
      blocks_per_multiprocessor(reinterpret_cast<const void*>(registers_backward_kernel<float>), kThreads, 0);
  constexpr std::int64_t kChannelsPerBlock = kWarps * kSlots;
  const std::int64_t groups = (args.batch * args.dim + kChannelsPerBlock - 1) / kChannelsPerBlock;
  return unsigned(
      std::max<std::int64_t>(1, std::min<std::int64_t>(groups, std::int64_t(multiprocessors()) * per_multiprocessor)));
}

}  // namespace

std::string registers_backward_refusal(const ScanArgs& args, bool is_complex) {
  if (is_complex) return "complex A";
  if (args.dstate > K * P) return "dstate > " + std::to_string(K * P);
  if (args.deterministic) return "deterministic (it adds dB and dC with atomics)";
  if (args.dims_per_group % kSlots != 0) return "dim / groups not a multiple of " + std::to_string(kSlots);
  return "";
}

std::int64_t registers_backward_items(const ScanArgs& args) {
  constexpr std::int64_t kChannelsPerBlock = kWarps * kSlots;
  return (args.batch * args.dim + kChannelsPerBlock - 1) / kChannelsPerBlock;
}

std::size_t registers_backward_scratch_bytes(const ScanArgs& args) {
  return std::size_t(grid_size(args)) * kTileStatesPerBlock * sizeof(float);
}

template <class Input>
void registers_backward(const ScanArgs& args, cudaStream_t stream) {
  const WorkspaceLayout workspace = workspace_layout(args, false);
  prepare_time_gradients(args, workspace, false, stream);
  registers_backward_kernel<Input><<<grid_size(args), kThreads, 0, stream>>>(args, workspace);
  SELECTIVE_SCAN_CHECK_LAUNCH();
  finish_parameter_gradients(args, workspace, false, stream);
}

template void registers_backward<float>(const ScanArgs&, cudaStream_t);
template void registers_backward<__half>(const ScanArgs&, cudaStream_t);
template void registers_backward<__nv_bfloat16>(const ScanArgs&, cudaStream_t);

}  // namespace selective_scan::detail

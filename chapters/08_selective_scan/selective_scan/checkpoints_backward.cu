// Version 5, backward: version 4's layout (K = 2 of a channel's 16 states a thread, P = 8 lanes a
// channel, four channels a warp) with two exponentials per state and step instead of three.
// Version 4 walked each 2048-step chunk three times, each walk taking Abar = exp(delta A) anew:
// a sweep keeping h at every 32-step tile start, a recomputation of a tile's h into registers,
// and the walk backwards. Here
//   1. the sweep keeps h every kStretch = 8 steps (a checkpoint; in the workspace, a thread its
//      own, read back a stretch at a time);
//   2. for each stretch, last first, the recomputation keeps both Abar_t and Abar_t h_{t-1} of its
//      8 steps in registers (32 floats a thread: half of version 4's 64 for h alone), and the
//      walk backwards takes them from there: it needs h_t = Abar_t h_{t-1} + delta_t u_t B_t,
//      Abar_t h_{t-1} itself, and Abar_t, and no exponential.
// The per-tile staging, the sums over states and over a warp's channels, and the dB/dC adds are
// version 4's; the values a lane keeps to finish its staged steps live in shared memory, not
// registers. When the channel groups are too few to fill the GPU, each sequence is cut into
// segments of whole chunks, one block each, as the forward cuts it (segment_carry.cuh); here the
// carry runs backwards in time: it is q, the gradient that flows from a segment's first step into
// the step before it. Every segment except the first walks its steps backwards once more, for q
// alone (from q = 0: one exponential a state and step more), and passes q on once the segment
// after it has passed on its own. Real A, up to 16 states, a group's channels in whole warps and
// the atomic dB and dC only; the launcher hands anything else to version 2's backward.
#include "check.hpp"
#include "device_math.cuh"
#include "reductions.cuh"
#include "segment_carry.cuh"
#include "sequence_access.cuh"
#include "staged_rows.cuh"
#include "warp_backward.cuh"

#include <algorithm>
#include <cstdint>

namespace selective_scan::detail {
namespace {

constexpr int kWarps = 4;              // per block
constexpr int kThreads = kWarps * 32;
constexpr int K = 2, P = 8;            // states a thread, lanes a channel: 16 states
constexpr int kSlots = 32 / P;         // channels a warp
constexpr int kStretch = 8;            // steps between two checkpoints of h
constexpr int kStretchesPerTile = kTile / kStretch;
constexpr int kStretchesPerChunk = int(kChunkLength / kStretch);
static_assert(kSlots == kGroup, "dB and dC of a group's four steps are spread over the warp's four channels");
static_assert(kStretch % kGroup == 0 && kTile % kStretch == 0, "a stretch is whole groups, a tile whole stretches");

// Rows padded so that the stores of a warp fall on different banks (as in version 4). 51 KB a
// block: three blocks a multiprocessor, as the 168 registers allow (`__launch_bounds__(128, 3)`:
// at (128, 4) the compiler kept 128 registers and spilled, and ran 4% slower).
constexpr std::int64_t kCheckpointsPerBlock = std::int64_t(kStretchesPerChunk) * K * kThreads;
struct Shared {
  float2 steps[kWarps][kSlots][kTile + P];            // (delta, delta u) of each step
  float2 finish[kWarps][kSlots][kTile + P];           // (u, d delta / d delta_raw) of each step
  float dy[kWarps][kSlots][kTile + 8];                // dout, times silu(z) with a gate
  float sums[kWarps][kSlots][2][kTile + 4];           // per step: sum over states of A Abar h_{t-1} g, of g B
  float time_gradients[kWarps][2][K * P][kTile + 2];  // dB_t, dC_t of the warp's rows
  StagedRows<K, P> rows[kWarps];
};

// kBothVariable: B and C both variable (Mamba's case), known when compiling, so that the constant
// B and C, their sums and their branches drop out of that kernel.
template <class Input, bool kBothVariable>
__global__ __launch_bounds__(kThreads, 3) void checkpoints_backward_kernel(
    ScanArgs args, WorkspaceLayout workspace, carry::Split split) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];  // sizeof(Shared): over the 48 KB of static memory
  Shared& sh = *reinterpret_cast<Shared*>(shared_bytes);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int slot = lane / P, j = lane % P;  // channel slot in the warp, lane in the channel
  const int n0 = j * K;
  const std::int64_t channels = args.batch * args.dim;
  float* partials = static_cast<float*>(args.workspace);
  // h before step s * kStretch of the chunk, state k: checkpoints[(s * K + k) * kThreads + threadIdx.x]
  float* checkpoints = partials + workspace.total + blockIdx.x * kCheckpointsPerBlock;

  // Work items: a block's 16 channels and one segment of their sequences, the last segment's
  // items first (each waits only for the items of the segment after it).
  __shared__ std::int64_t first_item;
  if (threadIdx.x == 0) first_item = split.segments > 1 ? std::int64_t(atomicAdd(split.words, 1ull)) : blockIdx.x;
  __syncthreads();
  const std::int64_t groups = (channels + kWarps * kSlots - 1) / (kWarps * kSlots);
  // With a cut, several blocks add into a channel's partial sums (zeroed by the launcher).
  const auto put = [&](float* partial, float value) {
    if (split.segments > 1) atomicAdd(partial, value);
    else *partial = value;
  };

  // The launcher makes a group's channels come in whole warps: the batch and the group, and so
  // the rows, are the same across a warp.
  for (std::int64_t item = first_item; item < groups * split.segments; item += gridDim.x) {
    const std::int64_t first = (item % groups * kWarps + warp) * kSlots;
    if (first >= channels) continue;
    const int segment = split.segments - 1 - int(item / groups);
    const std::int64_t chunk_begin = carry::segment_begin(args.chunks, split.segments, segment, 1);
    const std::int64_t chunk_end = carry::segment_begin(args.chunks, split.segments, segment + 1, 1);
    const std::int64_t bd = first + slot;
    const Channel<Input, false> ch(args, bd);
    const bool B_var = kBothVariable || ch.B_var, C_var = kBothVariable || ch.C_var;
    float A[K], A2[K], B_const[K], C_const[K], dA[K], dB_sum[K], dC_sum[K], q[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const int n = n0 + k;
      A[k] = A2[k] = B_const[k] = C_const[k] = dA[k] = dB_sum[k] = dC_sum[k] = q[k] = 0.f;
      if (n >= args.dstate) continue;  // A = B = C = 0: g and h stay 0
      A[k] = args.A[ch.d * args.A_dim_stride + n];
      A2[k] = log2_scaled(A[k]);
      if (!B_var) B_const[k] = static_cast<const float*>(args.B.data)[ch.d * args.B.dim_stride + n];
      if (!C_var) C_const[k] = static_cast<const float*>(args.C.data)[ch.d * args.C.dim_stride + n];
    }
    const int states_here = std::max(0, std::min(int{K}, args.dstate - n0));
    float dD = 0.f, ddelta_bias = 0.f;  // this lane's share: the steps it stages

    // One tile's (delta, delta u), and B (and with backwards, C) when variable, into shared
    // memory; backwards also dy and what finishing the steps needs.
    const auto stage = [&](std::int64_t t0, bool backwards) {
#pragma unroll
      for (int i = 0; i < kSlots; ++i) {
        const int s = j + P * i;
        const std::int64_t t = t0 + s;
        float2 v{0.f, 0.f}, kept{0.f, 0.f};
        float dy = 0.f;
        if (t < args.seqlen) {
          const float x = ch.delta_raw_at(t);
          const bool soft = args.delta_softplus && x <= 20.f;
          const float delta = args.delta_softplus ? softplus(x) : x;
          const float u = to_float(ch.u[t]);
          v = {delta, delta * u};
          if (backwards) {
            dy = to_float(ch.dout[t]);
            if (ch.z) {  // dz = dout y silu'(z) with y the forward's pre-gate output; dy = dout silu(z)
              const float z = to_float(ch.z[t]);
              const float y = to_float(ch.template sequence<Input>(args.out)[t]);
              ch.template sequence<Input>(args.dz)[t] = from_float<Input>(dy * y * silu_derivative(z));
              dy *= silu(z);
            }
            kept = {u, soft ? sigmoid(x) : 1.f};
            dD += dy * u;
          }
        }
        sh.steps[warp][slot][s] = v;
        if (backwards) sh.finish[warp][slot][s] = kept, sh.dy[warp][slot][s] = dy;
      }
      if (B_var || (backwards && C_var)) {
        TileRows<Input, K * P> rows;
        fetch_rows(ch.B_var, args.B.state_stride, backwards ? ch.C_var : nullptr, args.C.state_stride, args.dstate, t0,
                   args.seqlen, rows);
        stage_rows(rows, sh.rows[warp]);
      }
      __syncwarp();
    };
    // B or C of steps g ... g + 3 for this thread's states: staged rows, or the constant.
    const auto read_matrix = [&](const float4 (&staged)[kTile / kGroup][K][P], bool variable,
                                 const float (&constant)[K], int g, float (&out)[K][kGroup]) {
      if (variable) return read_rows(staged, g, j, out);
#pragma unroll
      for (int k = 0; k < K; ++k)
#pragma unroll
        for (int s = 0; s < kGroup; ++s) out[k][s] = constant[k];
    };
    const auto read_B = [&](int g, float (&B)[K][kGroup]) { read_matrix(sh.rows[warp].B, B_var, B_const, g, B); };
    const auto read_C = [&](int g, float (&C)[K][kGroup]) { read_matrix(sh.rows[warp].C, C_var, C_const, g, C); };
    const auto checkpoint = [&](int stretch, int k) -> float& {
      return checkpoints[(stretch * K + k) * kThreads + threadIdx.x];
    };
    // Where q at the boundary after segment b is carried, for this thread's state k.
    const auto carried = [&](int b, int k) {
      return split.words + carry::carry_index(split.segments, args.dstate, bd, b, n0 + k);
    };

    // [snippet:checkpoints_carry]
    // Pass 1, for a segment that continues another: q at its first step, from q = 0 at its end
    // (the last segment: the true q), then with the carry from the segment after it brought to
    // the start by the product of the decays, exp(A sum(delta)).
    if (segment > 0) {
      const std::int64_t t_begin = chunk_begin * kChunkLength;
      const std::int64_t t_end = std::min(args.seqlen, chunk_end * kChunkLength);
      float back[K] = {}, delta_sum = 0.f;
      for (std::int64_t t0 = t_begin + (t_end - t_begin - 1) / kTile * kTile; t0 >= t_begin; t0 -= kTile) {
        // (delta, dout times the gate) of each step, 0 past the end, and the C rows.
#pragma unroll
        for (int i = 0; i < kSlots; ++i) {
          const int s = j + P * i;
          const std::int64_t t = t0 + s;
          float2 v{0.f, 0.f};
          if (t < args.seqlen) {
            const float x = ch.delta_raw_at(t);
            v = {args.delta_softplus ? softplus(x) : x, to_float(ch.dout[t])};
            if (ch.z) v.y *= silu(to_float(ch.z[t]));
          }
          sh.steps[warp][slot][s] = v;
        }
        if (C_var) {
          TileRows<Input, K * P> rows;
          fetch_rows<Input>(nullptr, 0, ch.C_var, args.C.state_stride, args.dstate, t0, args.seqlen, rows);
          stage_rows(rows, sh.rows[warp]);
        }
        __syncwarp();
#pragma unroll
        for (int g = kTile - kGroup; g >= 0; g -= kGroup) {
          float C[K][kGroup];
          read_C(g, C);
#pragma unroll
          for (int s = kGroup - 1; s >= 0; --s) {
            const float2 step = sh.steps[warp][slot][g + s];
            delta_sum += step.x;
#pragma unroll
            for (int k = 0; k < K; ++k) back[k] = exp2_delta_A(step.x, A2[k]) * fmaf(step.y, C[k][s], back[k]);
          }
        }
        __syncwarp();
      }
#pragma unroll
      for (int k = 0; k < K; ++k) {
        if (k >= states_here) continue;
        if (segment + 1 < split.segments) {
          q[k] = carry::wait_for(carried(segment, k));
          back[k] += exp2f(A2[k] * delta_sum) * q[k];
        }
        carry::publish(carried(segment - 1, k), back[k]);
      }
    } else if (segment + 1 < split.segments) {
#pragma unroll
      for (int k = 0; k < K; ++k)
        if (k < states_here) q[k] = carry::wait_for(carried(segment, k));
    }
    // [/snippet:checkpoints_carry]

    // Pass 2: the gradients, chunk by chunk, last first.
    for (std::int64_t c = chunk_end - 1; c >= chunk_begin; --c) {
      const std::int64_t chunk_t0 = c * kChunkLength;
      const int tiles = int((std::min(args.seqlen, chunk_t0 + kChunkLength) - chunk_t0 + kTile - 1) / kTile);
      // 1. The sweep: h before every stretch of the chunk.
      float h[K];
#pragma unroll
      for (int k = 0; k < K; ++k) {
        h[k] = 0.f;
        if (k >= states_here) continue;
        if (c > 0) h[k] = args.chunk_states[ch.chunk_state_index(c - 1, n0 + k)];
        else if (args.initial_state) h[k] = args.initial_state[ch.state_index(n0 + k)];
      }
      for (int tile = 0; tile < tiles; ++tile) {
        stage(chunk_t0 + tile * kTile, false);
        // [snippet:checkpoints_sweep]
#pragma unroll
        for (int g = 0; g < kTile; g += kGroup) {
          if (g % kStretch == 0) {
#pragma unroll
            for (int k = 0; k < K; ++k) checkpoint(tile * kStretchesPerTile + g / kStretch, k) = h[k];
          }
          float B[K][kGroup];
          read_B(g, B);
#pragma unroll
          for (int s = 0; s < kGroup; s += 2) {
            const float4 two = *reinterpret_cast<const float4*>(&sh.steps[warp][slot][g + s]);
            const float delta[2] = {two.x, two.z}, delta_u[2] = {two.y, two.w};
#pragma unroll
            for (int e = 0; e < 2; ++e)
#pragma unroll
              for (int k = 0; k < K; ++k) h[k] = exp2_delta_A(delta[e], A2[k]) * h[k] + delta_u[e] * B[k][s + e];
          }
        }
        // [/snippet:checkpoints_sweep]
        __syncwarp();
      }
      // 2. The tiles backwards, and in each tile its stretches backwards.
      for (int tile = tiles - 1; tile >= 0; --tile) {
        const std::int64_t t0 = chunk_t0 + tile * kTile;
        // The tile's checkpoints are read before the staging, so that their trip overlaps it.
        float start[kStretchesPerTile][K];
#pragma unroll
        for (int st = 0; st < kStretchesPerTile; ++st)
#pragma unroll
          for (int k = 0; k < K; ++k) start[st][k] = checkpoint(tile * kStretchesPerTile + st, k);
        stage(t0, true);
#pragma unroll
        for (int st = kStretchesPerTile - 1; st >= 0; --st) {
          const int s0 = st * kStretch;
          // [snippet:checkpoints_recompute]
          // Abar_t and Abar_t h_{t-1} of the stretch's steps, from its checkpoint.
          float decay_at[kStretch][K], carried[kStretch][K];
#pragma unroll
          for (int k = 0; k < K; ++k) h[k] = start[st][k];
#pragma unroll
          for (int g = 0; g < kStretch; g += kGroup) {
            float B[K][kGroup];
            read_B(s0 + g, B);
#pragma unroll
            for (int s = 0; s < kGroup; s += 2) {
              const float4 two = *reinterpret_cast<const float4*>(&sh.steps[warp][slot][s0 + g + s]);
              const float delta[2] = {two.x, two.z}, delta_u[2] = {two.y, two.w};
#pragma unroll
              for (int e = 0; e < 2; ++e)
#pragma unroll
                for (int k = 0; k < K; ++k) {
                  const int i = g + s + e;
                  decay_at[i][k] = exp2_delta_A(delta[e], A2[k]);
                  carried[i][k] = decay_at[i][k] * h[k];
                  h[k] = carried[i][k] + delta_u[e] * B[k][s + e];
                }
            }
          }
          // [/snippet:checkpoints_recompute]
          // [snippet:checkpoints_step]
#pragma unroll
          for (int g = kStretch - kGroup; g >= 0; g -= kGroup) {
            const int tg = s0 + g;  // the group's first step in the tile
            float B[K][kGroup], C[K][kGroup];
            read_B(tg, B);
            read_C(tg, C);
            const float4 two0 = *reinterpret_cast<const float4*>(&sh.steps[warp][slot][tg]);
            const float4 two1 = *reinterpret_cast<const float4*>(&sh.steps[warp][slot][tg + 2]);
            const float4 dy4 = *reinterpret_cast<const float4*>(&sh.dy[warp][slot][tg]);
            const float delta[kGroup] = {two0.x, two0.z, two1.x, two1.z};
            const float delta_u[kGroup] = {two0.y, two0.w, two1.y, two1.w};
            const float dy[kGroup] = {dy4.x, dy4.y, dy4.z, dy4.w};
            float step_sums[2 * kGroup] = {};  // sum over states of A Abar h_{t-1} g, then of g B
            float dB[K][kGroup], dC[K][kGroup];
#pragma unroll
            for (int s = kGroup - 1; s >= 0; --s) {
              const int i = g + s;  // the step in the stretch
#pragma unroll
              for (int k = 0; k < K; ++k) {
                const float grad = fmaf(dy[s], C[k][s], q[k]);                   // g_t
                const float h_now = carried[i][k] + delta_u[s] * B[k][s];  // h_t, as the recomputation had it
                const float gh = grad * carried[i][k];
                dA[k] = fmaf(delta[s], gh, dA[k]);
                step_sums[s] = fmaf(A[k], gh, step_sums[s]);
                step_sums[kGroup + s] = fmaf(grad, B[k][s], step_sums[kGroup + s]);
                dB[k][s] = delta_u[s] * grad;
                dC[k][s] = dy[s] * h_now;
                q[k] = decay_at[i][k] * grad;
              }
            }
            // Lane j of the channel ends with value j: the sums of step j (j < 4) or of step j - 4.
            const float summed = reduce_scatter<2 * kGroup, 1>(step_sums);
            sh.sums[warp][slot][j / kGroup][tg + j % kGroup] = summed;
            // Channel slot s of the warp ends with step tg + s of the four channels' dB, dC.
#pragma unroll
            for (int k = 0; k < K; ++k) {
              if (B_var) sh.time_gradients[warp][0][n0 + k][tg + slot] = reduce_scatter<kGroup, P>(dB[k]);
              else for (int s = 0; s < kGroup; ++s) dB_sum[k] += dB[k][s];
              if (C_var) sh.time_gradients[warp][1][n0 + k][tg + slot] = reduce_scatter<kGroup, P>(dC[k]);
              else for (int s = 0; s < kGroup; ++s) dC_sum[k] += dC[k][s];
            }
          }
          // [/snippet:checkpoints_step]
        }
        __syncwarp();
        const int valid = int(std::min<std::int64_t>(kTile, args.seqlen - t0));
        add_tile_time_gradients(args, ch, t0, valid, B_var, C_var, sh.time_gradients[warp]);
        // Finish the steps this lane staged.
#pragma unroll
        for (int i = 0; i < kSlots; ++i) {
          const int s = j + P * i;
          if (s >= valid) continue;
          const float sum_Ahg = sh.sums[warp][slot][0][s], sum_gB = sh.sums[warp][slot][1][s];
          const float2 kept = sh.finish[warp][slot][s];
          const float ddelta = kept.y * (sum_Ahg + kept.x * sum_gB);
          ddelta_bias += ddelta;
          ch.template sequence<Input>(args.du)[t0 + s] =
              from_float<Input>(ch.D * sh.dy[warp][slot][s] + sh.steps[warp][slot][s].x * sum_gB);
          ch.template sequence<Input>(args.ddelta)[t0 + s] = from_float<Input>(ddelta);
        }
        __syncwarp();
      }
    }
    // The channel's sums: per state from its thread, per channel over its 8 lanes.
#pragma unroll
    for (int k = 0; k < K; ++k) {
      if (k >= states_here) continue;
      const std::int64_t at = bd * args.dstate + n0 + k;
      put(partials + workspace.dA + at, dA[k]);
      if (!B_var) put(partials + workspace.dB_const + at, dB_sum[k]);
      if (!C_var) put(partials + workspace.dC_const + at, dC_sum[k]);
      if (args.dinitial_state && segment == 0) args.dinitial_state[ch.state_index(n0 + k)] = q[k];
    }
#pragma unroll
    for (int offset = P / 2; offset > 0; offset /= 2) {
      dD += __shfl_xor_sync(0xffffffffu, dD, offset);
      ddelta_bias += __shfl_xor_sync(0xffffffffu, ddelta_bias, offset);
    }
    if (j == 0) {
      put(partials + workspace.dD + bd, dD);
      put(partials + workspace.ddelta_bias + bd, ddelta_bias);
    }
  }
}

// As many blocks as fit on the device at once, each taking channel groups in turn (or one work
// item each, when the sequences are cut): every block needs its own checkpoints (256 KB), and
// more blocks than run at once would only need more.
template <class Input, bool kBothVariable>
void allow_shared_memory() {
  SELECTIVE_SCAN_CHECK(cudaFuncSetAttribute(checkpoints_backward_kernel<Input, kBothVariable>,
                                            cudaFuncAttributeMaxDynamicSharedMemorySize, int(sizeof(Shared))));
}

// The grid, and how many segments each sequence is cut into.
struct Grid {
  unsigned blocks;
  int segments;
};
Grid grid_for(const ScanArgs& args) {
  int device = 0, multiprocessors = 0, per_multiprocessor = 0;
  SELECTIVE_SCAN_CHECK(cudaGetDevice(&device));
  SELECTIVE_SCAN_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  allow_shared_memory<float, true>();
  SELECTIVE_SCAN_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &per_multiprocessor, checkpoints_backward_kernel<float, true>, kThreads, sizeof(Shared)));
  constexpr std::int64_t kChannelsPerBlock = kWarps * kSlots;
  const std::int64_t groups = (args.batch * args.dim + kChannelsPerBlock - 1) / kChannelsPerBlock;
  const std::int64_t places = std::max<std::int64_t>(1, std::int64_t(multiprocessors) * per_multiprocessor);
  // Too few groups for the places: cut the sequences, in whole chunks, into as many segments as
  // the places allow; every item then has a running block of its own.
  if (groups < places && args.chunks > 1) {
    const int segments = int(std::min<std::int64_t>(places / groups, args.chunks));
    if (segments > 1) return {unsigned(groups * segments), segments};
  }
  // Every block takes the same number of channel groups: with 768 groups and 396 places, 396
  // blocks would run a second round at under the whole multiprocessor; 384 run two full rounds.
  const std::int64_t rounds = (groups + places - 1) / places;
  return {unsigned(std::max<std::int64_t>(1, (groups + rounds - 1) / rounds)), 1};
}

// The workspace past the partial sums: every block's checkpoints, then the carried words (on 8
// bytes).
std::size_t checkpoints_bytes(const Grid& grid) {
  return std::size_t(grid.blocks) * kCheckpointsPerBlock * sizeof(float);
}
std::size_t words_offset(const WorkspaceLayout& workspace, const Grid& grid) {
  return (std::size_t(workspace.total) * sizeof(float) + checkpoints_bytes(grid) + 7) / 8 * 8;
}

}  // namespace

bool checkpoints_backward_takes(const ScanArgs& args, bool is_complex) {
  return !is_complex && args.dstate <= K * P && !args.deterministic && args.dims_per_group % kSlots == 0;
}

std::size_t checkpoints_backward_scratch_bytes(const ScanArgs& args) {
  const WorkspaceLayout workspace = workspace_layout(args, false);
  const Grid grid = grid_for(args);
  return words_offset(workspace, grid) - std::size_t(workspace.total) * sizeof(float) +
         carry::split_bytes(args.batch * args.dim, args.dstate, grid.segments);
}

template <class Input>
void checkpoints_backward(const ScanArgs& args, cudaStream_t stream) {
  const WorkspaceLayout workspace = workspace_layout(args, false);
  prepare_time_gradients(args, workspace, false, stream);
  const Grid grid = grid_for(args);
  carry::Split split{1, nullptr};
  if (grid.segments > 1) {
    // The carries start unpublished, and the per-channel partial sums at 0 (blocks add into them).
    auto* bytes = static_cast<unsigned char*>(args.workspace);
    split = {grid.segments, reinterpret_cast<carry::Word*>(bytes + words_offset(workspace, grid))};
    SELECTIVE_SCAN_CHECK(cudaMemsetAsync(
        split.words, 0, carry::split_bytes(args.batch * args.dim, args.dstate, grid.segments), stream));
    SELECTIVE_SCAN_CHECK(cudaMemsetAsync(args.workspace, 0, std::size_t(workspace.dB_var) * sizeof(float), stream));
  }
  const auto launch = [&](auto kernel) {
    kernel<<<grid.blocks, kThreads, sizeof(Shared), stream>>>(args, workspace, split);
  };
  if (args.B.variable && args.C.variable) {
    allow_shared_memory<Input, true>();
    launch(checkpoints_backward_kernel<Input, true>);
  } else {
    allow_shared_memory<Input, false>();
    launch(checkpoints_backward_kernel<Input, false>);
  }
  SELECTIVE_SCAN_CHECK_LAUNCH();
  finish_parameter_gradients(args, workspace, false, stream);
}

template void checkpoints_backward<float>(const ScanArgs&, cudaStream_t);
template void checkpoints_backward<__half>(const ScanArgs&, cudaStream_t);
template void checkpoints_backward<__nv_bfloat16>(const ScanArgs&, cudaStream_t);

}  // namespace selective_scan::detail

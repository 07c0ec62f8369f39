// Version 2, backward: the official kernel's structure. One block per (b, d) walks the chunks
// from last to first. In each chunk, for each state n, it recomputes h from the chunk's stored
// starting state (a cub::BlockScan, as in the forward: recomputation instead of storing h for
// every step), then runs the gradient g = dL/dh backwards through the chunk with a block
// reverse scan of its own, and turns g into every gradient in registers.
//
// The reverse scan carries q_t = conj(Abar_t) g_t, what step t hands to step t - 1:
//   g_t = c_t + q_{t+1},  c_t = s dy_t conj(C_t)  (s = 2 for complex A, else 1),
//   q_t = conj(Abar_t) (c_t + q_{t+1}),
// a map q_{t+1} -> q_t of the same (a, b) form as the forward's, made of step t's values alone.
// Where step t begins a packed sequence, conj(Abar_t) g_t is that sequence's dinitial_state, and
// what the step before receives is the dlast_state of the sequence it ends: the map (0, dlast).
#pragma once

#include "check.hpp"
#include "reductions.cuh"
#include "sequence_access.cuh"
#include "v2_blocked_common.cuh"

#include <cub/block/block_scan.cuh>

#include <algorithm>

namespace selective_scan::detail {
namespace blocked_backward_impl {

template <class S>
__device__ __forceinline__ S apply(Pair<S> map, S value) {
  return map.a * value + map.b;
}
__device__ __forceinline__ float shuffle_down(float x, int offset) { return __shfl_down_sync(0xffffffffu, x, offset); }
__device__ __forceinline__ cfloat shuffle_down(cfloat x, int offset) {
  return {shuffle_down(x.re, offset), shuffle_down(x.im, offset)};
}
template <class S>
__device__ __forceinline__ Pair<S> shuffle_down(Pair<S> p, int offset) {
  return {shuffle_down(p.a, offset), shuffle_down(p.b, offset)};
}

// Packed sequences (packed_sequences.cuh): nothing crosses the step that begins a sequence.
// Step i's map q_{t+1} -> q_t: (conj(Abar), conj(Abar) c), or where the step begins a sequence,
// (0, the dlast_state of the sequence before), what the step before starts from.
template <class S, class Input, bool kComplex>
__device__ Pair<S> reverse_map(const Channel<Input, kComplex>& ch, const StepSequences& sequences, int i, int n, S a,
                               S c) {
  if (sequences.begins_at(i)) return {state_zero<S>(), ch.last_state_gradient(sequences.sequence(i) - 1, n)};
  return {conj(a), conj(a) * c};
}
// What step i hands the step before from g = dL/dh there: conj(Abar) g, or where the step begins
// a sequence, that sequence's dinitial_state (stored here) and the step before gets the dlast_state
// of the sequence it ends.
template <class S, class Input, bool kComplex>
__device__ S hand_back(const Channel<Input, kComplex>& ch, const StepSequences& sequences, int i, int n, S a, S g) {
  if (!sequences.begins_at(i)) return conj(a) * g;
  const std::int64_t sequence = sequences.sequence(i);
  if (ch.args.dinitial_state) store_state(ch.args.dinitial_state, ch.state_index(sequence, n), conj(a) * g);
  return ch.last_state_gradient(sequence - 1, n);
}
// h before step i: the step before's, or where the step begins a sequence, its initial state.
template <class S, class Input, bool kComplex>
__device__ S state_before(const Channel<Input, kComplex>& ch, const StepSequences& sequences, int i, int n,
                          S h_earlier) {
  return sequences.begins_at(i) ? ch.initial_state(sequences.sequence(i), n) : h_earlier;
}

// [snippet:reverse_block_scan]
// Given each thread's map (its steps composed, last step first) and q entering the chunk's last
// step, returns q entering this thread's last step. Thread 0 also gets q leaving the chunk's
// first step, in *leaving. A warp scans its maps from lane 31 down with shuffle-down; the warps'
// totals meet in shared memory.
template <class S, int kThreads>
__device__ S reverse_scan_block(Pair<S> thread_map, S entering, Pair<S>* warp_totals, S* leaving) {
  constexpr int kWarps = kThreads / 32;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const Pair<S> identity{state_one<S>(), state_zero<S>()};
  Pair<S> later = thread_map;  // becomes: lanes lane..31 of this warp, lane 31 applied first
#pragma unroll
  for (int offset = 1; offset < 32; offset *= 2) {
    const Pair<S> other = shuffle_down(later, offset);
    if (lane + offset < 32) later = compose(other, later);
  }
  Pair<S> after_me = shuffle_down(later, 1);  // lanes lane+1..31
  if (lane == 31) after_me = identity;
  if (lane == 0) warp_totals[warp] = later;
  __syncthreads();
  S q = entering;
  for (int w = kWarps - 1; w > warp; --w) q = apply(warp_totals[w], q);
  if (threadIdx.x == 0) *leaving = apply(later, q);
  return apply(after_me, q);
}
// [/snippet:reverse_block_scan]

template <class Input, bool kComplex, int kThreads, int kItems, bool kPacked>
__global__ __launch_bounds__(kThreads) void blocked_backward_kernel(ScanArgs args, WorkspaceLayout workspace) {
  using S = State<kComplex>;
  using IO = BlockIO<Input, kThreads, kItems>;
  using Scan = cub::BlockScan<Pair<S>, kThreads, cub::BLOCK_SCAN_WARP_SCANS>;
  constexpr int kChunk = kThreads * kItems;
  constexpr int kWarps = kThreads / 32;
  constexpr int kParts = kComplex ? 2 : 1;  // floats per state value
  __shared__ union {
    typename IO::TempStorage io;
    typename Scan::TempStorage scan;
    Pair<S> time_gradients[kChunk];  // (dB, dC) of each step of the chunk, for the striped write
  } temp;
  __shared__ Pair<S> warp_totals[kWarps];
  __shared__ S carry[kMaxStates];  // per state: q entering the current chunk's last step
  __shared__ S last_h[kThreads];   // each thread's h at its last step
  __shared__ float scratch[kWarps * 3 * kParts];
  __shared__ S sum_dA[kMaxStates], sum_dB[kMaxStates], sum_dC[kMaxStates];
  const Pair<S> identity{state_one<S>(), state_zero<S>()};
  const float output_scale = kComplex ? 2.f : 1.f;
  float* partials = static_cast<float*>(args.workspace);

  for (std::int64_t bd = blockIdx.x; bd < args.batch * args.dim; bd += gridDim.x) {
    Channel<Input, kComplex> ch(args, bd);
    for (int n = threadIdx.x; n < args.dstate; n += kThreads) {
      sum_dA[n] = sum_dB[n] = sum_dC[n] = state_zero<S>();
      // What enters the last step from after it: the caller's gradient of the last state, or 0.
      carry[n] = ch.last_state_gradient(ch.last_sequence(), n);
    }
    float dD = 0, ddelta_bias = 0;  // this thread's share
    const std::int64_t chunks = (args.seqlen + kChunk - 1) / kChunk;
    for (std::int64_t c = chunks - 1; c >= 0; --c) {
      const std::int64_t t0 = c * kChunk;
      const int valid = int(std::min<std::int64_t>(kChunk, args.seqlen - t0));
      const int first = threadIdx.x * kItems;
      const StepSequences sequences = sequences_of_steps<kItems, kPacked>(args, ch.b, t0 + first);
      float u[kItems], delta[kItems], slope[kItems], dy[kItems], du[kItems], ddelta[kItems];
      IO::load(ch.u + t0, valid, u, temp.io);
      __syncthreads();
      IO::load(ch.delta + t0, valid, delta, temp.io);
      __syncthreads();
      IO::load(ch.dout + t0, valid, dy, temp.io);
      __syncthreads();
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        const float x = delta[i] + ch.delta_bias;
        const bool soft = args.delta_softplus && x <= 20.f;
        delta[i] = soft ? softplus(x) : x;
        slope[i] = soft ? sigmoid(x) : 1.f;
      }
      if (ch.z) {  // dy = dout silu(z); dz = dout y silu'(z), with y = out from the forward
        float z[kItems], y[kItems];
        IO::load(ch.z + t0, valid, z, temp.io);
        __syncthreads();
        IO::load(ch.template sequence<Input>(args.out) + t0, valid, y, temp.io);
        __syncthreads();
        float dz[kItems];
#pragma unroll
        for (int i = 0; i < kItems; ++i) {
          dz[i] = dy[i] * y[i] * silu_derivative(z[i]);
          dy[i] *= silu(z[i]);
        }
        IO::store(ch.template sequence<Input>(args.dz) + t0, valid, dz, temp.io);
        __syncthreads();
      }
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        if (first + i < valid) dD += dy[i] * u[i];
        du[i] = ch.D * dy[i];
        ddelta[i] = 0;
      }
      for (int n = 0; n < args.dstate; ++n) {
        S B[kItems], C[kItems];
        load_state_parameters<IO>(ch, n, t0, valid, B, C, temp.io);
        // Recompute h over the chunk from its starting state.
        const S h_start = c > 0 ? load_state<S>(args.chunk_states, ch.chunk_state_index(c - 1, n))
                                : ch.initial_state(ch.first_sequence(), n);
        S a[kItems], h[kItems];
        Pair<S> scanned[kItems];
#pragma unroll
        for (int i = 0; i < kItems; ++i) {
          a[i] = exp_delta_A(delta[i], ch.A);
          scanned[i] = first + i < valid ? step_map(ch, sequences, i, n, a[i], (delta[i] * u[i]) * B[i]) : identity;
        }
        Scan(temp.scan).InclusiveScan(scanned, scanned, ComposePairs<S>{});
#pragma unroll
        for (int i = 0; i < kItems; ++i) h[i] = apply(scanned[i], h_start);
        // Each step also needs h_prev: from its own thread, or the last step of the thread before.
        last_h[threadIdx.x] = h[kItems - 1];
        __syncthreads();
        const S h_before = threadIdx.x > 0 ? last_h[threadIdx.x - 1] : h_start;
        // [snippet:blocked_backward_state]
        // The gradient, backwards: this thread's map, the block's reverse scan, then each step.
        S c_term[kItems];
        Pair<S> thread_map = identity;
#pragma unroll
        for (int i = kItems - 1; i >= 0; --i) {
          c_term[i] = first + i < valid ? (output_scale * dy[i]) * conj(C[i]) : state_zero<S>();
          const Pair<S> step = first + i < valid ? reverse_map(ch, sequences, i, n, a[i], c_term[i]) : identity;
          thread_map = compose(thread_map, step);
        }
        const S entering = carry[n];
        __syncthreads();  // the scan's storage and carry[n] are free again
        S q = reverse_scan_block<S, kThreads>(thread_map, entering, warp_totals, &carry[n]);
        S dA = state_zero<S>(), dB = state_zero<S>(), dC = state_zero<S>();
        Pair<S> dBC[kItems];  // dB and dC of each step, for variable B and C
#pragma unroll
        for (int i = kItems - 1; i >= 0; --i) {
          if (first + i >= valid) {
            dBC[i] = {state_zero<S>(), state_zero<S>()};
            continue;
          }
          const S g = c_term[i] + q;  // dL/dh at this step
          q = hand_back(ch, sequences, i, n, a[i], g);
          // Abar h_prev, the part of h that came from h_prev. (h - delta B u, as the official
          // kernel computes it, loses digits when delta B u dominates h.)
          const S h_in = a[i] * state_before(ch, sequences, i, n, i > 0 ? h[i - 1] : h_before);
          dA = dA + delta[i] * (conj(h_in) * g);
          ddelta[i] += real(conj(g) * (ch.A * h_in + u[i] * B[i]));
          du[i] += real(conj(g) * (delta[i] * B[i]));
          const S dB_t = (delta[i] * u[i]) * g;
          const S dC_t = (output_scale * dy[i]) * conj(h[i]);
          dBC[i] = {dB_t, dC_t};
          if (!ch.B_var) dB = dB + dB_t;
          if (!ch.C_var) dC = dC + dC_t;
        }
        // [/snippet:blocked_backward_state]
        if (ch.B_var || ch.C_var) {
          // Thread k holds steps k * kItems ...; handing them out striped (thread k takes steps
          // k, k + kThreads, ...) makes a warp's atomics or stores hit 32 consecutive addresses.
#pragma unroll
          for (int i = 0; i < kItems; ++i) temp.time_gradients[first + i] = dBC[i];
          __syncthreads();
#pragma unroll
          for (int j = 0; j < kItems; ++j) {
            const int step = j * kThreads + threadIdx.x;
            if (step >= valid) break;
            const Pair<S> v = temp.time_gradients[step];
            if (ch.B_var) add_time_gradient(args, args.dB, workspace.dB_var, ch, n, t0 + step, v.a);
            if (ch.C_var) add_time_gradient(args, args.dC, workspace.dC_var, ch, n, t0 + step, v.b);
          }
        }
        float sums[3 * kParts];
        const S parts[3] = {dA, dB, dC};
#pragma unroll
        for (int k = 0; k < 3; ++k) {
          if constexpr (kComplex)
            sums[2 * k] = parts[k].re, sums[2 * k + 1] = parts[k].im;
          else
            sums[k] = parts[k];
        }
        block_sum_fixed_order<kThreads>(sums, scratch);
        if (threadIdx.x == 0) {
          S total[3];
#pragma unroll
          for (int k = 0; k < 3; ++k) {
            if constexpr (kComplex)
              total[k] = cfloat{sums[2 * k], sums[2 * k + 1]};
            else
              total[k] = sums[k];
          }
          sum_dA[n] = sum_dA[n] + total[0];
          sum_dB[n] = sum_dB[n] + total[1];
          sum_dC[n] = sum_dC[n] + total[2];
        }
      }
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        ddelta[i] *= slope[i];
        if (first + i < valid) ddelta_bias += ddelta[i];
      }
      IO::store(ch.template sequence<Input>(args.du) + t0, valid, du, temp.io);
      __syncthreads();
      IO::store(ch.template sequence<Input>(args.ddelta) + t0, valid, ddelta, temp.io);
      __syncthreads();
    }
    for (int n = threadIdx.x; n < args.dstate; n += kThreads) {
      store_state(partials + workspace.dA, bd * args.dstate + n, sum_dA[n]);
      if (!args.B.variable) store_state(partials + workspace.dB_const, bd * args.dstate + n, sum_dB[n]);
      if (!args.C.variable) store_state(partials + workspace.dC_const, bd * args.dstate + n, sum_dC[n]);
      if (args.dinitial_state) store_state(args.dinitial_state, ch.state_index(ch.first_sequence(), n), carry[n]);
    }
    float per_channel[2] = {dD, ddelta_bias};
    block_sum_fixed_order<kThreads>(per_channel, scratch);
    if (threadIdx.x == 0) {
      partials[workspace.dD + bd] = per_channel[0];
      partials[workspace.ddelta_bias + bd] = per_channel[1];
    }
    __syncthreads();
  }
}

}  // namespace blocked_backward_impl

template <class Input, bool kComplex>
void blocked_backward(const ScanArgs& args, cudaStream_t stream) {
  const WorkspaceLayout workspace = workspace_layout(args, kComplex);
  prepare_time_gradients(args, workspace, kComplex, stream);
  with_block_shape(args, [&](auto shape, auto packed) {
    using Shape = decltype(shape);
    const unsigned blocks = unsigned(std::min<std::int64_t>(args.batch * args.dim, 1 << 30));
    blocked_backward_impl::blocked_backward_kernel<Input, kComplex, Shape::kThreads, Shape::kItems,
                                                   decltype(packed)::value>
        <<<blocks, Shape::kThreads, 0, stream>>>(args, workspace);
    SELECTIVE_SCAN_CHECK_LAUNCH();
  });
  finish_parameter_gradients(args, workspace, kComplex, stream);
}

}  // namespace selective_scan::detail

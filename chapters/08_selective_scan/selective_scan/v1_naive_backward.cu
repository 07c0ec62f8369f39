// Version 1, naive, backward: one thread per (b, d, n), walking time step by step, exactly the
// recurrence, as the forward (v1_naive_forward.cu) does. A block holds the dstate threads of one
// (b, d); the sums over states of the du and ddelta terms go through shared memory, 32 steps at a
// time, added up in a fixed order, so the result does not depend on timing. It is the version to
// read first and the yardstick the others are timed against.
#include "check.hpp"
#include "device_math.cuh"
#include "reductions.cuh"
#include "sequence_access.cuh"
#include "v1_naive.cuh"

namespace selective_scan::detail {
namespace {

// The backward walks each chunk twice: forward from the chunk's stored starting state, keeping
// h for each step of the chunk (in local memory: this is the naive version), then backward,
// carrying g = dL/dh from step t + 1 to step t.
template <class Input, bool kComplex>
__global__ void naive_backward_kernel(ScanArgs args, WorkspaceLayout workspace) {
  using S = State<kComplex>;
  extern __shared__ float terms[];  // two [dstate][kSummedSteps + 1] arrays: ddelta and du terms
  float* ddelta_terms = terms;
  float* du_terms = terms + args.dstate * (kSummedSteps + 1);
  const int n = threadIdx.x;
  const bool has_state = n < args.dstate;
  const float output_scale = kComplex ? 2.f : 1.f;  // y = 2 Re(C h) for complex A
  float* partials = static_cast<float*>(args.workspace);
  S h_chunk[kChunkLength];

  for (std::int64_t bd = blockIdx.x; bd < args.batch * args.dim; bd += gridDim.x) {
    Channel<Input, kComplex> ch(args, bd);
    if (has_state) ch.at_state(n);
    // g and Abar of step t + 1; past the last step, conj(Abar) g is what the caller hands back to
    // h there (dlast_state), so the pair starts as (dlast_state, 1).
    S g_next = state_zero<S>(), a_next = state_one<S>();
    if (has_state && args.dlast_state) g_next = load_state<S>(args.dlast_state, ch.state_index(n));
    S dA = state_zero<S>(), dB = state_zero<S>(), dC = state_zero<S>();
    float dD = 0, ddelta_bias = 0;  // per step-thread, summed over the block at the end
    for (std::int64_t c = args.chunks - 1; c >= 0; --c) {
      const std::int64_t begin = c * kChunkLength, end = std::min(args.seqlen, begin + kChunkLength);
      S h_start = state_zero<S>();  // h before the chunk's first step
      if (has_state) {
        h_start = c > 0                ? load_state<S>(args.chunk_states, ch.chunk_state_index(c - 1, n))
                  : args.initial_state ? load_state<S>(args.initial_state, ch.state_index(n))
                                       : state_zero<S>();
        S h = h_start;
        for (std::int64_t t = begin; t < end; ++t) {
          const float delta = ch.delta_at(t);
          h = exp_delta_A(delta, ch.A) * h + (delta * to_float(ch.u[t])) * ch.B_at(n, t);
          h_chunk[t - begin] = h;
        }
      }
      const std::int64_t tiles = (end - begin + kSummedSteps - 1) / kSummedSteps;
      for (std::int64_t tile = tiles - 1; tile >= 0; --tile) {
        const std::int64_t t0 = begin + tile * kSummedSteps;
        const int steps = int(std::min<std::int64_t>(kSummedSteps, end - t0));
        if (has_state) {
          // This tile's share of dA, dB, dC first, then into the totals: a sum of 32-step sums
          // rounds far less than one running sum over thousands of steps, which matters where
          // the terms cancel (a long-memory state: dA ~ 10 from terms in the thousands).
          S dA_tile = state_zero<S>(), dB_tile = state_zero<S>(), dC_tile = state_zero<S>();
          for (int k = steps - 1; k >= 0; --k) {
            const std::int64_t t = t0 + k;
            const float delta = ch.delta_at(t), u = to_float(ch.u[t]);
            const float dout = to_float(ch.dout[t]);
            const float dy = ch.z ? dout * silu(to_float(ch.z[t])) : dout;
            const S a = exp_delta_A(delta, ch.A), B = ch.B_at(n, t), C = ch.C_at(n, t);
            const S h = h_chunk[t - begin];
            // Abar h_prev, the part of h that came from h_prev. (h - delta B u would save the
            // multiplication but loses digits when delta B u dominates h.)
            const S h_in = a * (t > begin ? h_chunk[t - 1 - begin] : h_start);
            // [snippet:naive_backward_step]
            const S g = (output_scale * dy) * conj(C) + conj(a_next) * g_next;  // dL/dh_t
            dA_tile = dA_tile + delta * (conj(h_in) * g);
            const S dB_t = (delta * u) * g;
            const S dC_t = (output_scale * dy) * conj(h);
            ddelta_terms[n * (kSummedSteps + 1) + k] = real(conj(g) * (ch.A * h_in + u * B));
            du_terms[n * (kSummedSteps + 1) + k] = real(conj(g) * (delta * B));
            // [/snippet:naive_backward_step]
            if (ch.B_var)
              add_time_gradient(args, args.dB, workspace.dB_var, ch, n, t, dB_t);
            else
              dB_tile = dB_tile + dB_t;
            if (ch.C_var)
              add_time_gradient(args, args.dC, workspace.dC_var, ch, n, t, dC_t);
            else
              dC_tile = dC_tile + dC_t;
            g_next = g, a_next = a;
          }
          dA = dA + dA_tile, dB = dB + dB_tile, dC = dC + dC_tile;
        }
        __syncthreads();
        if (threadIdx.x < steps) {  // thread k finishes step t0 + k
          const std::int64_t t = t0 + threadIdx.x;
          float ddelta = 0, du = 0;
          for (int m = 0; m < args.dstate; ++m) {
            ddelta += ddelta_terms[m * (kSummedSteps + 1) + threadIdx.x];
            du += du_terms[m * (kSummedSteps + 1) + threadIdx.x];
          }
          const float u = to_float(ch.u[t]), dout = to_float(ch.dout[t]);
          float dy = dout;
          if (ch.z) {
            const float z = to_float(ch.z[t]);
            dy = dout * silu(z);
            const float y = to_float(ch.template sequence<Input>(args.out)[t]);
            ch.template sequence<Input>(args.dz)[t] = from_float<Input>(dout * y * silu_derivative(z));
          }
          du += ch.D * dy;
          dD += dy * u;
          const float ddelta_raw = ddelta * ch.delta_slope_at(t);
          ddelta_bias += ddelta_raw;
          ch.template sequence<Input>(args.du)[t] = from_float<Input>(du);
          ch.template sequence<Input>(args.ddelta)[t] = from_float<Input>(ddelta_raw);
        }
        __syncthreads();
      }
    }
    if (has_state) {
      store_state(partials + workspace.dA, bd * args.dstate + n, dA);
      if (!args.B.variable) store_state(partials + workspace.dB_const, bd * args.dstate + n, dB);
      if (!args.C.variable) store_state(partials + workspace.dC_const, bd * args.dstate + n, dC);
      if (args.dinitial_state) store_state(args.dinitial_state, ch.state_index(n), conj(a_next) * g_next);
    }
    if (threadIdx.x < 32) {  // the 32 step-threads' sums, added in a fixed order
      dD = warp_sum_fixed_order(dD);
      ddelta_bias = warp_sum_fixed_order(ddelta_bias);
      if (threadIdx.x == 0) {
        partials[workspace.dD + bd] = dD;
        partials[workspace.ddelta_bias + bd] = ddelta_bias;
      }
    }
    __syncthreads();
  }
}

}  // namespace

template <class Input, bool kComplex>
void naive_backward(const ScanArgs& args, cudaStream_t stream) {
  const WorkspaceLayout workspace = workspace_layout(args, kComplex);
  prepare_time_gradients(args, workspace, kComplex, stream);
  const std::size_t shared = 2 * naive_terms_bytes(args.dstate);
  const auto kernel = naive_backward_kernel<Input, kComplex>;
  // Two term arrays for dstate 256 need 66 KiB, past the 48 KiB a launch gets without asking.
  SELECTIVE_SCAN_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
  kernel<<<naive_blocks(args.batch * args.dim), naive_threads(args.dstate), shared, stream>>>(args, workspace);
  SELECTIVE_SCAN_CHECK_LAUNCH();
  finish_parameter_gradients(args, workspace, kComplex, stream);
}

template void naive_backward<float, false>(const ScanArgs&, cudaStream_t);
template void naive_backward<float, true>(const ScanArgs&, cudaStream_t);
template void naive_backward<__half, false>(const ScanArgs&, cudaStream_t);
template void naive_backward<__half, true>(const ScanArgs&, cudaStream_t);
template void naive_backward<__nv_bfloat16, false>(const ScanArgs&, cudaStream_t);
template void naive_backward<__nv_bfloat16, true>(const ScanArgs&, cudaStream_t);

}  // namespace selective_scan::detail

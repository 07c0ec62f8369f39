// Version 1, naive, forward: one thread per (b, d, n), walking time step by step, exactly the
// recurrence. A block holds the dstate threads of one (b, d); the sum over states of y goes
// through shared memory, 32 steps at a time, added up in a fixed order, so the result does not
// depend on timing. The reader writes this kernel in the chapter's exercise 4: the book's
// exercises build compiles chapter 08's exercises/v1_naive_forward.cu in this file's place.
#include "device_math.cuh"
#include "sequence_access.cuh"
#include "v1_naive.cuh"

namespace selective_scan::detail {
namespace {

// [snippet:naive_forward]
template <class Input, bool kComplex>
__global__ void naive_forward_kernel(ScanArgs args) {
  using S = State<kComplex>;
  extern __shared__ float terms[];  // [dstate][kSummedSteps + 1]: state n's part of y at each step of a tile
  const int n = threadIdx.x;
  const bool has_state = n < args.dstate;
  for (std::int64_t bd = blockIdx.x; bd < args.batch * args.dim; bd += gridDim.x) {
    Channel<Input, kComplex> ch(args, bd);
    S h = state_zero<S>();
    if (has_state) {
      ch.at_state(n);
      if (args.initial_state) h = load_state<S>(args.initial_state, ch.state_index(n));
    }
    for (std::int64_t t0 = 0; t0 < args.seqlen; t0 += kSummedSteps) {
      const int steps = int(std::min<std::int64_t>(kSummedSteps, args.seqlen - t0));
      if (has_state) {
        for (int k = 0; k < steps; ++k) {
          const std::int64_t t = t0 + k;
          const float delta = ch.delta_at(t);
          h = exp_delta_A(delta, ch.A) * h + (delta * to_float(ch.u[t])) * ch.B_at(n, t);
          terms[n * (kSummedSteps + 1) + k] = output_part(ch.C_at(n, t) * h);
          if ((t + 1) % kChunkLength == 0 || t + 1 == args.seqlen)
            store_state(args.chunk_states, ch.chunk_state_index(t / kChunkLength, n), h);
        }
      }
      __syncthreads();
      if (threadIdx.x < steps) {  // thread k finishes step t0 + k: sum over states, D, gate
        const std::int64_t t = t0 + threadIdx.x;
        float y = 0;
        for (int m = 0; m < args.dstate; ++m) y += terms[m * (kSummedSteps + 1) + threadIdx.x];
        y += ch.D * to_float(ch.u[t]);
        ch.template sequence<Input>(args.out)[t] = from_float<Input>(y);
        if (ch.z) ch.template sequence<Input>(args.out_z)[t] = from_float<Input>(y * silu(to_float(ch.z[t])));
      }
      __syncthreads();
    }
    if (has_state && args.last_state) store_state(args.last_state, ch.state_index(n), h);
  }
}
// [/snippet:naive_forward]

}  // namespace

}  // namespace selective_scan::detail

#include "v1_naive_forward_launch.cuh"

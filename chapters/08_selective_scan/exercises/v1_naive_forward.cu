// Exercise 4: version 1's forward kernel -- one thread per state, walking time, on the GPU.
//
// The kernel gets one block per channel (b, d) at a time: bd = b·dim + d from blockIdx.x up to
// args.batch·args.dim in steps of gridDim.x. A block has naive_threads(dstate) threads (dstate
// rounded up to a warp); thread n < args.dstate owns state n. For t = 0 .. args.seqlen − 1:
//   h_t[n] = exp(Δ_t A[n]) h_(t−1)[n] + Δ_t u_t B_t[n]    h_(−1) = args.initial_state if given, else 0
//   out_t = Σ_n C_t[n] h_t[n] + D u_t                    and, with a gate, out_z_t = out_t · silu(z_t)
// h goes to args.chunk_states at the last step of every chunk of kChunkLength (2048) steps and at
// the sequence's last step, and to args.last_state (if given) at the end. The pieces, in
// sequence_access.cuh and device_math.cuh (S = State<kComplex>: a float, or a (re, im) pair):
//   Channel<Input, kComplex> ch(args, bd)   one channel's rows: ch.u[t], ch.z[t] (ch.z null
//       without a gate), ch.D (0 without D)
//   ch.at_state(n)                 loads state n's A into ch.A (and a constant B or C)
//   ch.delta_at(t)                 Δ_t, after the bias and softplus
//   ch.B_at(n, t), ch.C_at(n, t)   B_t[n] and C_t[n], variable or constant
//   exp_delta_A(delta, ch.A)       exp(Δ A[n]), the decay of one step
//   output_part(C h)               one state's part of out_t (2 Re(C h) for complex A)
//   to_float(x), from_float<Input>(y), silu(x)   to and from the input type; the gate
//   load_state<S>(p, i), store_state(p, i, h)   a state at index i of an fp32 array
//   ch.state_index(n), ch.chunk_state_index(c, n)   where state n is kept (at the end of chunk c)
//   ch.template sequence<Input>(args.out)[t]        out_t (args.out_z: out_z_t)
//   extern __shared__ float terms[]   naive_terms_bytes(dstate): [dstate][kSummedSteps + 1] floats
// The idea: each state's thread walks its h through time; the sum over states goes through
// `terms`, kSummedSteps (32) steps at a time, each step's column added up in a fixed order, so
// that the result does not depend on timing.
// Hints: which threads finish the steps of a tile when dstate is 1, or 40? How many steps has the
// last tile? Threads with no state must still reach every __syncthreads(): where are the two
// barriers a tile needs? Does the last step of a sequence of 2049 steps end a chunk?
// The launch below the kernel is the library's (v1_naive_forward_launch.cuh): leave it.
// Test it with:  scripts/exercise ch08_selective_scan 4
#include "device_math.cuh"
#include "sequence_access.cuh"
#include "v1_naive.cuh"

namespace selective_scan::detail {
namespace {

// [snippet:stub]
template <class Input, bool kComplex>
__global__ void naive_forward_kernel(ScanArgs args) {
  // TODO(exercise): walk each state through time, sum the states' parts of out a tile of steps at
  // a time, and keep the chunk states and the last state.
  // [/snippet:stub]
  // Until then: out = D u, as if every state's part were 0 (wrong wherever C h is not), and no
  // state kept.
  for (std::int64_t bd = blockIdx.x; bd < args.batch * args.dim; bd += gridDim.x) {
    const Channel<Input, kComplex> ch(args, bd);
    for (std::int64_t t = threadIdx.x; t < args.seqlen; t += blockDim.x) {
      const float y = ch.D * to_float(ch.u[t]);
      ch.template sequence<Input>(args.out)[t] = from_float<Input>(y);
      if (ch.z) ch.template sequence<Input>(args.out_z)[t] = from_float<Input>(y * silu(to_float(ch.z[t])));
    }
  }
}

}  // namespace

}  // namespace selective_scan::detail

#include "v1_naive_forward_launch.cuh"

// Version 2, forward: the official kernel's structure. One block per (b, d) walks the sequence
// in chunks of kThreads x kItems steps. For each state n it forms the pairs (Abar, delta B u) of
// the chunk in registers, scans them with cub::BlockScan, and carries the state into the next
// chunk through a running prefix. Everything between reading u, delta, B, C, z and writing out,
// out_z happens in registers: that fusion is the first of Mamba's hardware-aware ideas. Packed
// sequences restart the state where each begins (packed_sequences.cuh): the scan needs no other
// change.
#include "check.hpp"
#include "sequence_access.cuh"
#include "v2_blocked_common.cuh"

#include <cub/block/block_scan.cuh>

#include <algorithm>

namespace selective_scan::detail {
namespace {

// [snippet:running_prefix]
// cub::BlockScan asks its first warp for the prefix of the chunk, passing the chunk's total.
// Lane 0 answers with the map of everything before the chunk and folds the total into it; the
// other lanes' answers are ignored.
template <class S>
struct RunningPrefix {
  Pair<S>* running;  // shared memory
  __device__ Pair<S> operator()(Pair<S> chunk_total) {
    if (threadIdx.x != 0) return {state_one<S>(), state_zero<S>()};
    const Pair<S> before = *running;
    *running = compose(before, chunk_total);
    return before;
  }
};
// [/snippet:running_prefix]

template <class Input, bool kComplex, int kThreads, int kItems, bool kPacked>
__global__ __launch_bounds__(kThreads) void blocked_forward_kernel(ScanArgs args) {
  using S = State<kComplex>;
  using IO = BlockIO<Input, kThreads, kItems>;
  using Scan = cub::BlockScan<Pair<S>, kThreads, cub::BLOCK_SCAN_WARP_SCANS>;
  constexpr int kChunk = kThreads * kItems;
  __shared__ union {
    typename IO::TempStorage io;
    typename Scan::TempStorage scan;
  } temp;
  __shared__ Pair<S> running[kMaxStates];  // per state: the map from h_start to the end of the last chunk
  const Pair<S> identity{state_one<S>(), state_zero<S>()};

  for (std::int64_t bd = blockIdx.x; bd < args.batch * args.dim; bd += gridDim.x) {
    Channel<Input, kComplex> ch(args, bd);
    for (int n = threadIdx.x; n < args.dstate; n += kThreads)
      running[n] = {state_one<S>(), ch.initial_state(ch.first_sequence(), n)};
    const std::int64_t chunks = (args.seqlen + kChunk - 1) / kChunk;
    for (std::int64_t c = 0; c < chunks; ++c) {
      const std::int64_t t0 = c * kChunk;
      const int valid = int(std::min<std::int64_t>(kChunk, args.seqlen - t0));
      float u[kItems], delta[kItems], y[kItems];
      IO::load(ch.u + t0, valid, u, temp.io);
      __syncthreads();
      IO::load(ch.delta + t0, valid, delta, temp.io);
      __syncthreads();
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        const float x = delta[i] + ch.delta_bias;
        delta[i] = args.delta_softplus ? softplus(x) : x;
        y[i] = 0;
      }
      const int first = threadIdx.x * kItems;  // this thread's first step within the chunk
      const StepSequences sequences = sequences_of_steps<kItems, kPacked>(args, ch.b, t0 + first);
      for (int n = 0; n < args.dstate; ++n) {
        S B[kItems], C[kItems];
        load_state_parameters<IO>(ch, n, t0, valid, B, C, temp.io);
        // [snippet:blocked_forward_state]
        Pair<S> h[kItems];  // (Abar, delta B u) per step; after the scan, (product of Abar, h)
#pragma unroll
        for (int i = 0; i < kItems; ++i) {
          h[i] = first + i < valid
                     ? step_map(ch, sequences, i, n, exp_delta_A(delta[i], ch.A), (delta[i] * u[i]) * B[i])
                     : identity;
        }
        RunningPrefix<S> prefix{&running[n]};
        Scan(temp.scan).InclusiveScan(h, h, ComposePairs<S>{}, prefix);
#pragma unroll
        for (int i = 0; i < kItems; ++i) y[i] += output_part(C[i] * h[i].b);
        // [/snippet:blocked_forward_state]
        if (args.last_state && sequences.ends)  // packed sequences that end inside the channel
#pragma unroll
          for (int i = 0; i < kItems; ++i)
            if (sequences.ends_at(i)) store_state(args.last_state, ch.state_index(sequences.sequence(i), n), h[i].b);
        if (threadIdx.x == 0) store_state(args.chunk_states, ch.chunk_state_index(c, n), running[n].b);
        __syncthreads();
      }
#pragma unroll
      for (int i = 0; i < kItems; ++i) y[i] += ch.D * u[i];
      IO::store(ch.template sequence<Input>(args.out) + t0, valid, y, temp.io);
      __syncthreads();
      if (ch.z) {
        float z[kItems];
        IO::load(ch.z + t0, valid, z, temp.io);
        __syncthreads();
#pragma unroll
        for (int i = 0; i < kItems; ++i) y[i] *= silu(z[i]);
        IO::store(ch.template sequence<Input>(args.out_z) + t0, valid, y, temp.io);
        __syncthreads();
      }
    }
    if (args.last_state)
      for (int n = threadIdx.x; n < args.dstate; n += kThreads)
        store_state(args.last_state, ch.state_index(ch.last_sequence(), n), running[n].b);
    __syncthreads();
  }
}

}  // namespace

template <class Input, bool kComplex>
void blocked_forward(const ScanArgs& args, cudaStream_t stream) {
  with_block_shape(args, [&](auto shape, auto packed) {
    using Shape = decltype(shape);
    const unsigned blocks = unsigned(std::min<std::int64_t>(args.batch * args.dim, 1 << 30));
    blocked_forward_kernel<Input, kComplex, Shape::kThreads, Shape::kItems, decltype(packed)::value>
        <<<blocks, Shape::kThreads, 0, stream>>>(args);
    SELECTIVE_SCAN_CHECK_LAUNCH();
  });
}

template void blocked_forward<float, false>(const ScanArgs&, cudaStream_t);
template void blocked_forward<float, true>(const ScanArgs&, cudaStream_t);
template void blocked_forward<__half, false>(const ScanArgs&, cudaStream_t);
template void blocked_forward<__half, true>(const ScanArgs&, cudaStream_t);
template void blocked_forward<__nv_bfloat16, false>(const ScanArgs&, cudaStream_t);
template void blocked_forward<__nv_bfloat16, true>(const ScanArgs&, cudaStream_t);

}  // namespace selective_scan::detail

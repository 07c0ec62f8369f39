// v2_blocked_common.cuh: what the forward and backward of version 2 share -- the block shape chosen
// by sequence length, and block-wide loads and stores that turn the input type into fp32 registers.
#pragma once

#include "device_math.cuh"
#include "packed_sequences.cuh"
#include "selective_scan.hpp"
#include "sequence_access.cuh"

#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>

#include <type_traits>

namespace selective_scan::detail {

// A block of kThreads threads walks the sequence chunk by chunk, each thread holding kItems
// consecutive steps of a chunk in registers.
template <int kThreads_, int kItems_>
struct BlockShape {
  static constexpr int kThreads = kThreads_, kItems = kItems_, kChunk = kThreads * kItems;
};

// [snippet:block_shape_table]
// The official kernel's table: short sequences get small blocks, so that no thread holds only
// padding; from 1025 steps on, chunks of 128 x 16 = 2048 = kChunkLength steps.
template <class Launch>
void with_block_shape(std::int64_t seqlen, Launch&& launch) {
  if (seqlen <= 128)
    launch(BlockShape<32, 4>{});
  else if (seqlen <= 256)
    launch(BlockShape<32, 8>{});
  else if (seqlen <= 512)
    launch(BlockShape<32, 16>{});
  else if (seqlen <= 1024)
    launch(BlockShape<64, 16>{});
  else
    launch(BlockShape<128, 16>{});
}
// [/snippet:block_shape_table]
// Packed sequences take the largest shape alone (one kernel more a type and A, not five): they
// are the one case where a block's steps can restart, built apart so that no other call pays for it.
template <class Launch>
void with_block_shape(const ScanArgs& args, Launch&& launch) {
  if (args.cu_seqlens) return launch(BlockShape<128, 16>{}, std::true_type{});
  with_block_shape(args.seqlen, [&](auto shape) { launch(shape, std::false_type{}); });
}
// A block's chunk c is then the API's chunk c: either the whole sequence fits in one chunk, or
// the chunk is exactly kChunkLength long.
static_assert(BlockShape<128, 16>::kChunk == kChunkLength);

// Coalesced loads of one chunk of a sequence: the warp reads consecutive addresses and a
// transpose through shared memory hands each thread its kItems consecutive steps.
template <class Input, int kThreads, int kItems>
struct BlockIO {
  using Load = cub::BlockLoad<Input, kThreads, kItems, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using LoadPairs = cub::BlockLoad<Input, kThreads, 2 * kItems, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Store = cub::BlockStore<Input, kThreads, kItems, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  union TempStorage {
    typename Load::TempStorage load;
    typename LoadPairs::TempStorage load_pairs;
    typename Store::TempStorage store;
  };

  // Steps past `valid` read as 0. Callers synchronize before reusing `temp`.
  static __device__ void load(const Input* p, int valid, float (&out)[kItems], TempStorage& temp) {
    Input raw[kItems];
    Load(temp.load).Load(p, raw, valid, from_float<Input>(0.f));
#pragma unroll
    for (int i = 0; i < kItems; ++i) out[i] = to_float(raw[i]);
  }
  // A variable B or C: real, or (re, im) pairs for complex A.
  static __device__ void load(const Input* p, int valid, cfloat (&out)[kItems], TempStorage& temp) {
    Input raw[2 * kItems];
    LoadPairs(temp.load_pairs).Load(p, raw, 2 * valid, from_float<Input>(0.f));
#pragma unroll
    for (int i = 0; i < kItems; ++i) out[i] = {to_float(raw[2 * i]), to_float(raw[2 * i + 1])};
  }
  static __device__ void store(Input* p, int valid, const float (&values)[kItems], TempStorage& temp) {
    Input raw[kItems];
#pragma unroll
    for (int i = 0; i < kItems; ++i) raw[i] = from_float<Input>(values[i]);
    Store(temp.store).Store(p, raw, valid);
  }
};

// State n's A, and its B and C over the chunk: a variable B or C loaded (the block synchronizes
// after each load, so `temp` is free again), a constant one repeated.
template <class IO, class Input, bool kComplex, int kItems>
__device__ void load_state_parameters(Channel<Input, kComplex>& ch, int n, std::int64_t t0, int valid,
                                      State<kComplex> (&B)[kItems], State<kComplex> (&C)[kItems],
                                      typename IO::TempStorage& temp) {
  constexpr int kInputsPerStep = kComplex ? 2 : 1;  // of a variable B or C
  ch.at_state(n);
  if (ch.B_var) {
    IO::load(ch.B_var + n * ch.args.B.state_stride + t0 * kInputsPerStep, valid, B, temp);
    __syncthreads();
  }
  if (ch.C_var) {
    IO::load(ch.C_var + n * ch.args.C.state_stride + t0 * kInputsPerStep, valid, C, temp);
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    if (!ch.B_var) B[i] = ch.B_const;
    if (!ch.C_var) C[i] = ch.C_const;
  }
}

// Step i's map h_prev -> h from its Abar and delta B u: (Abar, delta B u), or, where the step
// begins a packed sequence, (0, Abar h0 + delta B u) from that sequence's initial state h0.
template <class S, class Input, bool kComplex>
__device__ Pair<S> step_map(const Channel<Input, kComplex>& ch, const StepSequences& sequences, int i, int n, S a,
                            S bu) {
  if (!sequences.begins_at(i)) return {a, bu};
  return {state_zero<S>(), a * ch.initial_state(sequences.sequence(i), n) + bu};
}

}  // namespace selective_scan::detail

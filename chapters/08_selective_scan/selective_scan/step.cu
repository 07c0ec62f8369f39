// The one-token step (step.hpp): every state of a batch of sequences advanced by one token, in
// place. The step is memory-bound: each state element is read once and written once, and that
// traffic (batch x heads x head_dim x dstate elements, twice) dwarfs everything else. So:
//   - a thread loads 32 bytes of neighbouring states (8 fp32, 16 fp16 or bf16), and B and C (and A
//     where it varies along dstate) for those states, in 16-byte loads where the rows allow it
//     (step_plan.cpp decides): the bytes a thread has in flight are what hides the memory's
//     latency. A few threads (lanes) share a longer row and add up the output by shuffles;
//   - a block takes channels of one sequence and one head, which all read the same B and C row:
//     each lane reads its part of the row itself, the block's other channels find it in L1, and
//     nothing waits at a barrier, so a thread issues all its loads at once;
//   - enough blocks for every channel at once: at batch 1 the whole state is one wave of loads.
#include "check.hpp"
#include "device_math.cuh"
#include "step_plan.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

namespace selective_scan {
namespace detail {
namespace {

// kCount neighbouring values of a row, in as few accesses as their bytes allow (16, 8 or 4 at a
// time; the plan checked that every row and offset is aligned to them), or one value. kReadOnly
// reads through the read-only path (A, B, C: read by many threads, written by none).
template <int kBytes>
using WordOf = std::conditional_t<kBytes % 16 == 0, uint4, std::conditional_t<kBytes % 8 == 0, uint2, unsigned>>;
template <bool kReadOnly, int kCount, class T>
__device__ __forceinline__ void load_row(const T* p, T (&v)[kCount]) {
  if constexpr (kCount == 1) {
    v[0] = kReadOnly ? __ldg(p) : *p;
  } else {
    constexpr int kBytes = kCount * int(sizeof(T));
    using Word = WordOf<kBytes>;
    Word words[kBytes / sizeof(Word)];
#pragma unroll
    for (int w = 0; w < int(kBytes / sizeof(Word)); ++w)
      words[w] = kReadOnly ? __ldg(reinterpret_cast<const Word*>(p) + w) : reinterpret_cast<const Word*>(p)[w];
    std::memcpy(v, words, kBytes);
  }
}
template <int kCount, class T>
__device__ __forceinline__ void store_row(T* p, const T (&v)[kCount]) {
  if constexpr (kCount == 1) {
    *p = v[0];
  } else {
    constexpr int kBytes = kCount * int(sizeof(T));
    using Word = WordOf<kBytes>;
    Word words[kBytes / sizeof(Word)];
    std::memcpy(words, v, kBytes);
#pragma unroll
    for (int w = 0; w < int(kBytes / sizeof(Word)); ++w) reinterpret_cast<Word*>(p)[w] = words[w];
  }
}

template <class T>
__device__ __forceinline__ const T* typed(const void* p) {
  return static_cast<const T*>(p);
}

// [snippet:step_kernel]
// Where a block is: the grid's x, y and z are the runs of `channels` channels of a head, the heads
// and the sequences, so that a block finds its place without a division; `lanes` (a power of two)
// threads a channel, found by a mask and a shift. Filled in by launch() from the plan.
struct StepGrid {
  std::int64_t runs = 1, heads_per_group = 1;
  int channels = 1, lanes_log2 = 0;
};

// Channel d of head h of sequence b (its state in slot `slot`), advanced by one token by the
// `lanes` threads that share it; this thread is `lane` of them. Stored is the state's type (fp32
// or the input type); kVector the states a thread loads at once; kDecayPerChannel: A is constant
// along dstate, one exponential serves the whole channel; Offset the type of every index (int32
// where the plan found that every tensor's offsets fit: half the registers and instructions of
// 64-bit arithmetic).
template <class Input, class Stored, int kVector, bool kDecayPerChannel, class Offset>
__device__ __forceinline__ void step_channel(const StepParams& p, const StepGrid& grid, Offset b, Offset slot, Offset h,
                                             Offset d, int lane) {
  const auto at = [](Offset i, std::int64_t stride) { return i * Offset(stride); };
  const int lanes = 1 << grid.lanes_log2;
  const Offset g = h / Offset(grid.heads_per_group);
  const Input* B_row = typed<Input>(p.B.data) + at(b, p.B.batch_stride) + at(g, p.B.group_stride);
  const Input* C_row = typed<Input>(p.C.data) + at(b, p.C.batch_stride) + at(g, p.C.group_stride);
  const bool active = d < Offset(p.sizes.head_dim);
  // Where channel (b, h, d) is in a (batch, heads, head_dim) tensor, and (h, d) in a weight.
  const auto channel = [&](const auto& t) {
    return at(b, t.batch_stride) + at(h, t.head_stride) + at(d, t.dim_stride);
  };
  const auto weight = [&](const auto& t) { return at(h, t.head_stride) + at(d, t.dim_stride); };
  // Every value the channel reads is asked for before any is used, so that their trips to
  // memory overlap: one round trip a step, not three (the step size first, then the state, then
  // D and z after the sum -- a load after the state's store could not be moved ahead of it).
  float x = 0.f, y = 0.f, dt_raw = 0.f, dt_bias = 0.f, D = 0.f, z = 0.f, A_channel = 0.f;
  if (active) {
    x = to_float(typed<Input>(p.x.data)[channel(p.x)]);
    dt_raw = to_float(typed<Input>(p.dt.data)[channel(p.dt)]);
    if (p.dt_bias.data) dt_bias = p.dt_bias.data[weight(p.dt_bias)];
    if (p.D.data) D = p.D.data[weight(p.D)];
    if (p.z.data) z = to_float(typed<Input>(p.z.data)[channel(p.z)]);
    Stored* state = static_cast<Stored*>(p.state.data) + at(slot, p.state.slot_stride) + at(h, p.state.head_stride) +
                    at(d, p.state.dim_stride);
    const float* A = p.A.data + weight(p.A);
    if constexpr (kDecayPerChannel) A_channel = __ldg(A);
    for (Offset first = Offset(lane) * kVector; first < Offset(p.sizes.dstate); first += Offset(lanes) * kVector) {
      Stored h_prev[kVector];
      load_row<false>(state + first, h_prev);
      [[maybe_unused]] float a[kVector];
      if constexpr (!kDecayPerChannel) {
        if constexpr (kVector == 1)
          a[0] = __ldg(A + at(first, p.A.state_stride));
        else  // contiguous along dstate
          load_row<true>(A + first, a);
      }
      Input B_raw[kVector], C_raw[kVector];
      if constexpr (kVector == 1) {
        B_raw[0] = __ldg(B_row + at(first, p.B.state_stride));
        C_raw[0] = __ldg(C_row + at(first, p.C.state_stride));
      } else {  // contiguous along dstate
        load_row<true>(B_row + first, B_raw);
        load_row<true>(C_row + first, C_raw);
      }
      // The step size once the loads are on their way (again on a lane's rare second pass:
      // cheaper than holding the loads back behind it).
      const float dt = p.dt_softplus ? softplus(dt_raw + dt_bias) : dt_raw + dt_bias;
      const float dt_x = dt * x;
      // The decay by type, as versions 4 and 5 take it (decay_power): fp32 inputs the library's
      // accurate 2^y, fp16 and bf16 the hardware's, whose bias is far below their rounding.
      [[maybe_unused]] float channel_decay = 0.f;
      if constexpr (kDecayPerChannel) channel_decay = exp2_delta_A<Input>(dt, log2_scaled(A_channel));
      Stored h_next[kVector];
#pragma unroll
      for (int i = 0; i < kVector; ++i) {
        const float abar = kDecayPerChannel ? channel_decay : exp2_delta_A<Input>(dt, log2_scaled(a[i]));
        const float next = abar * to_float(h_prev[i]) + dt_x * to_float(B_raw[i]);
        y += next * to_float(C_raw[i]);  // the new state before it is rounded to Stored
        h_next[i] = from_float<Stored>(next);
      }
      store_row(state + first, h_next);
    }
  }
  // Every thread of the warp takes part (an inactive channel adds 0): the lanes of a channel
  // are neighbours, a power of two, within one warp.
  for (int offset = lanes / 2; offset > 0; offset /= 2) y += __shfl_xor_sync(0xffffffffu, y, offset);
  if (active && lane == 0) {
    if (p.D.data) y += D * x;
    if (p.z.data) y *= silu(z);
    static_cast<Input*>(p.out.data)[channel(p.out)] = from_float<Input>(y);
  }
}

// A block a (run, head, sequence); the loops take the rest only where a count passes the grid's
// limits (launch()).
template <class Input, class Stored, int kVector, bool kDecayPerChannel, class Offset>
__global__ __launch_bounds__(kStepThreads, std::is_same_v<Offset, std::int32_t>
                                               ? kStepBlocksPerSM
                                               : 1) void step_kernel(StepParams p, StepGrid grid) {
  const int lane = int(threadIdx.x) & ((1 << grid.lanes_log2) - 1);
  const int row = int(threadIdx.x) >> grid.lanes_log2;
  for (Offset b = Offset(blockIdx.z); b < Offset(p.sizes.batch); b += Offset(gridDim.z)) {
    Offset slot = b;
    if (p.state_batch_indices) {  // the same for the whole block: it skips together
      const std::int32_t index = p.state_batch_indices[b];
      if (index == p.pad_slot || index < 0 || index >= p.sizes.slots) continue;
      slot = Offset(index);
    }
    for (Offset h = Offset(blockIdx.y); h < Offset(p.sizes.heads); h += Offset(gridDim.y))
      for (Offset run = Offset(blockIdx.x); run < Offset(grid.runs); run += Offset(gridDim.x))
        step_channel<Input, Stored, kVector, kDecayPerChannel>(p, grid, b, slot, h, run * grid.channels + row, lane);
  }
}
// [/snippet:step_kernel]

// A grid dimension's limit: y and z take at most 65535 blocks, x 2^31 - 1. Past them the kernel's
// loops take the rest.
constexpr std::int64_t kMaxGridYZ = 65535, kMaxGridX = INT32_MAX;

template <class Input, class Stored, int kVector, class Offset>
void launch(const StepParams& p, const StepPlan& plan, cudaStream_t stream) {
  const StepSizes& s = p.sizes;
  StepGrid grid;
  grid.channels = plan.channels;
  grid.runs = (s.head_dim + plan.channels - 1) / plan.channels;
  grid.heads_per_group = s.heads / s.groups;
  while ((1 << grid.lanes_log2) < plan.lanes) ++grid.lanes_log2;
  const dim3 blocks(unsigned(std::min(grid.runs, kMaxGridX)), unsigned(std::min(s.heads, kMaxGridYZ)),
                    unsigned(std::min(s.batch, kMaxGridYZ)));
  const unsigned threads = unsigned(plan.lanes * plan.channels);
  if (plan.decay_per_channel)
    step_kernel<Input, Stored, kVector, true, Offset><<<blocks, threads, 0, stream>>>(p, grid);
  else
    step_kernel<Input, Stored, kVector, false, Offset><<<blocks, threads, 0, stream>>>(p, grid);
  SELECTIVE_SCAN_CHECK_LAUNCH();
}

template <class Input, class Stored, int kVector>
void launch_offsets(const StepParams& p, const StepPlan& plan, cudaStream_t stream) {
  if (plan.offsets_32) return launch<Input, Stored, kVector, std::int32_t>(p, plan, stream);
  launch<Input, Stored, kVector, std::int64_t>(p, plan, stream);
}

template <class Input, class Stored>
void launch_stored(const StepParams& p, const StepPlan& plan, cudaStream_t stream) {
  if (plan.vector == kStepVectorOf<Stored>)
    return launch_offsets<Input, Stored, kStepVectorOf<Stored>>(p, plan, stream);
  if (plan.vector == kStepNarrowVector) return launch_offsets<Input, Stored, kStepNarrowVector>(p, plan, stream);
  if (plan.vector == 1) return launch_offsets<Input, Stored, 1>(p, plan, stream);
  throw Error("selective_scan: internal error: no step kernel loads " + std::to_string(plan.vector) + " states");
}

template <class Input>
void launch_input(const StepParams& p, const StepPlan& plan, cudaStream_t stream) {
  if (p.state.type == DataType::float32) return launch_stored<Input, float>(p, plan, stream);
  return launch_stored<Input, Input>(p, plan, stream);
}

}  // namespace
}  // namespace detail

void step(const StepParams& params, cudaStream_t stream) {
  if (const std::string problem = validate(params); !problem.empty()) throw Error("selective_scan::step: " + problem);
  StepParams p = params;
  if (p.sizes.slots == 0) p.sizes.slots = p.sizes.batch;
  const StepPlan plan = detail::make_step_plan(p);
  switch (p.input_type) {
    case DataType::float32: return detail::launch_input<float>(p, plan, stream);
    case DataType::float16: return detail::launch_input<__half>(p, plan, stream);
    case DataType::bfloat16: return detail::launch_input<__nv_bfloat16>(p, plan, stream);
  }
}

}  // namespace selective_scan

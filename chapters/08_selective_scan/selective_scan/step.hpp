// step.hpp: the selective scan advanced by one token, for generation (the official Mamba code's
// selective_state_update). Each sequence of a batch holds its state h; a call reads one token
// per sequence and updates h in place. For sequence b, head h, channel p of the head, state n:
//   dt     = softplus(dt_raw[b,h,p] + dt_bias[h,p])  when dt_softplus (softplus(x) = x above 20),
//            dt_raw[b,h,p] + dt_bias[h,p]            otherwise (dt_bias is optional, default 0);
//   state  = exp(dt * A[h,p,n]) * state + dt * B[b,g,n] * x[b,h,p]    with g = h / (heads / groups),
//            state[s,h,p,n] with s = state_batch_indices[b] where given, else s = b;
//   out    = sum_n C[b,g,n] * state[s,h,p,n] + D[h,p] * x[b,h,p]       (D is optional),
//   out   *= silu(z[b,h,p])                                           when z is given.
// Arithmetic is fp32; out is computed from the new state before it is rounded to the state's type.
//
// Two forms, one kernel. Mamba-1's state (batch, dim, dstate), A (dim, dstate) and B, C (batch,
// dstate) are the head form with one head of dim channels and one group. Mamba-2's module passes
// A as (heads) and dt as (batch, heads), D and dt_bias as (heads), each expanded over the head's
// channels (and A over the states): give them with zero strides. A constant along dstate
// (A.state_stride 0) is one exponential a channel instead of one a state.
//
// Layouts, strides in elements:
//   state                 (slots, heads, head_dim, dstate)  fp32 or the input type, contiguous along dstate
//   x, dt, z, out         (batch, heads, head_dim)          input type
//   B, C                  (batch, groups, dstate)           input type
//   A                     (heads, head_dim, dstate)         fp32
//   D, dt_bias            (heads, head_dim)                 fp32
//   state_batch_indices   (batch)                           int32, contiguous
// Continuous batching: with state_batch_indices, sequence b reads and writes the state's slot
// state_batch_indices[b] of a pool of `slots`. An index equal to pad_slot skips sequence b: its
// state and its out are not touched. So is an index outside [0, slots), which the GPU cannot
// report without a synchronisation: it writes nothing rather than outside the pool. Two
// sequences of one call must not name the same slot (they would race), and no output may overlap
// another tensor of the call.
//
// Errors. step() checks the whole parameter struct first and throws selective_scan::Error with
// one line naming the problem, before anything is launched; validate() returns that line (empty
// when the parameters are fine) without throwing. Launch errors throw Error too. step() is
// asynchronous on `stream`.
#pragma once

#include "selective_scan.hpp"

#include <cstdint>
#include <string>

#include <cuda_runtime_api.h>

namespace selective_scan {

// [snippet:step_params]
struct StepSizes {
  std::int64_t batch = 0;     // sequences this call advances (rows of x, dt, B, C, z, out)
  std::int64_t heads = 1;     // Mamba-1: 1
  std::int64_t head_dim = 0;  // channels a head (Mamba-1: dim)
  int dstate = 0;             // in [1, kMaxStates]
  int groups = 1;             // of B and C: heads must be a multiple of groups
  std::int64_t slots = 0;     // the state's first dimension (a pool with state_batch_indices); 0: batch
};

// x, dt, z and out: (batch, heads, head_dim) in the input type.
template <class Pointer>
struct ChannelTensor {
  Pointer data = nullptr;
  DataType type = DataType::float32;  // must equal the call's input_type
  std::int64_t batch_stride = 0, head_stride = 0, dim_stride = 0;
};
using StepInput = ChannelTensor<const void*>;
using StepOutput = ChannelTensor<void*>;

// B and C: (batch, groups, dstate) in the input type.
struct GroupInput {
  const void* data = nullptr;
  DataType type = DataType::float32;  // must equal the call's input_type
  std::int64_t batch_stride = 0, group_stride = 0, state_stride = 1;
};

// The state, read and written in place: (slots, heads, head_dim, dstate), contiguous along dstate.
struct StepState {
  void* data = nullptr;
  DataType type = DataType::float32;  // float32, or the call's input_type
  std::int64_t slot_stride = 0, head_stride = 0, dim_stride = 0;
};

// fp32 weights: A (heads, head_dim, dstate); D and dt_bias (heads, head_dim).
struct StateWeights {
  const float* data = nullptr;
  std::int64_t head_stride = 0, dim_stride = 0, state_stride = 0;
};
struct ChannelWeights {
  const float* data = nullptr;
  std::int64_t head_stride = 0, dim_stride = 0;
};

struct StepParams {
  StepSizes sizes;
  DataType input_type = DataType::float32;  // x, dt, z, B, C and out
  bool dt_softplus = false;

  StepState state;         // required
  StepInput x, dt;         // required
  StateWeights A;          // required
  GroupInput B, C;         // required
  ChannelWeights D;        // optional (data == nullptr: no D x term)
  ChannelWeights dt_bias;  // optional
  StepInput z;             // optional (data == nullptr: no gate)
  StepOutput out;          // required

  const std::int32_t* state_batch_indices = nullptr;  // optional: sequence b's slot in the state
  std::int32_t pad_slot = -1;                         // an index equal to it skips the sequence
};
// [/snippet:step_params]

// [snippet:step_functions]
// How step() runs a call: a thread takes `vector` neighbouring states of a channel at once (32
// bytes of them, 8 fp32 or 16 fp16 or bf16, where every row of the state, of B and C and of A
// where it varies along dstate starts on that many values and dstate is a multiple; else 4 where
// that holds for 4; else 1), `lanes` threads share a channel, a block takes `channels` channels
// of one sequence and head, which read the same B and C row.
struct StepPlan {
  int vector = 1;
  int lanes = 1;
  int channels = 1;
  bool decay_per_channel = false;  // A constant along dstate: one exponential a channel
  bool offsets_32 = false;         // every tensor's offsets fit in 31 bits: the kernel indexes in int32
  // e.g. "16 states a load, 1 lane a channel, 128 channels a block, a decay a state, 32-bit offsets"
  std::string summary() const;
};
StepPlan step_plan_of(const StepParams& params);  // throws Error for parameters validate() rejects

std::string validate(const StepParams& params);
void step(const StepParams& params, cudaStream_t stream = nullptr);
// [/snippet:step_functions]

}  // namespace selective_scan

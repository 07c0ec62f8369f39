// ssd.hpp: Mamba-2's SSD on the GPU, forward and backward, as a library: what the official
// mamba_chunk_scan_combined takes, on contiguous tensors (the layouts below, last index fastest).
//
// For batch row b, head h (of group g = h / (heads / groups)), channel i of the head and state k:
//   dt'[b,t,h] = clamp(softplus?(dt[b,t,h] + dt_bias[h]), dt_min, dt_max)
//   S[t]       = exp(dt' A[h]) S[t-1] + dt' x[b,t,h,i] B[b,t,g,k],   S[-1] = initial_states (or 0)
//   u[b,t,h,i] = sum_k C[b,t,g,k] S[t] + D x,   y = u silu(z)  (y = u without z)
// ch10::Problem (ssd_problem.hpp) is the same definition in fp64, which every test compares with.
//
// Versions (chapter 10 teaches them in this order):
//   1  recurrence  chapter 08's selective scan with one A a head: the heads' channels laid out
//                  as chapter 08's (batch, dim, seqlen) tensors, its kernel run, the gradients
//                  summed back over each head's channels and states
//   2  chunked     the chunked algorithm in the official forward's five stages, its products in
//                  cuBLAS (fp32); forward only (its backward is version 1's); packed sequences,
//                  and each one's own final states
//   3  fused       the five stages in one kernel on the tensor cores (mma.sync, sm_80+), a block
//                  walking a head's chunks of 64 with the state in its registers; fp16 and bf16
//                  up to 256 states, fp32 up to 128 as pairs of bf16 (hi + lo, three products for
//                  one); its backward walks the chunks in reverse from the states its forward
//                  leaves at each chunk (not deterministic: float atomics)
// A backward runs version 3's where the forward's kernel is fused, or automatic and version 3
// takes the call; else version 1's.
//
// Errors: forward() and backward() check the parameters first and throw ssd::Error with one line
// naming the problem, before anything is launched; validate() returns that line. No output may
// share a byte with another tensor of its call, not even in place (version 3 writes a segment's y
// while other segments still read x): validate() compares the tensors' addresses. Both are
// asynchronous on `stream` and take their scratch memory in its order from a pool of the
// library's, which keeps it between calls (cached_memory_bytes, release_cached_memory).
#pragma once

#include "selective_scan.hpp"

#include <cstdint>
#include <limits>
#include <string>

#include <cuda_runtime_api.h>

namespace ssd {

// Chapter 08's: the library builds on it, and a caller of both names one type and one error.
using selective_scan::DataType;
using selective_scan::Error;

enum class Kernel {
  automatic = 0,   // the first that takes the call of 3, then 1, then 2 (ssd/README.md: why)
  recurrence = 1,  // version 1
  chunked = 2,     // version 2
  fused = 3,       // version 3
  warpgroup = 4,   // version 4: version 3's forward on Hopper's wgmma (automatic does not choose it)
};

// [snippet:api_params]
struct Sizes {
  std::int64_t batch = 0, seqlen = 0;
  int heads = 0, head_dim = 0, groups = 1, dstate = 0;
};

// Tensors in the input type: x, z, y, dx, dz, dy (batch, seqlen, heads, head_dim); dt, ddt
// (batch, seqlen, heads); B, C (batch, seqlen, groups, dstate). fp32: A, dA, dt_bias, ddt_bias
// (heads); D, dD (heads) or (heads, head_dim); the states (batch, heads, head_dim, dstate); dB and
// dC (batch, seqlen, groups, dstate).
struct ForwardParams {
  Sizes sizes;
  DataType input_type = DataType::float32;
  Kernel kernel = Kernel::automatic;

  const void* x = nullptr;         // required
  const void* dt = nullptr;        // required
  const float* A = nullptr;        // required
  const void* B = nullptr;         // required
  const void* C = nullptr;         // required
  const float* D = nullptr;        // optional
  bool D_per_channel = false;      // D is (heads, head_dim), else (heads)
  const void* z = nullptr;         // optional: the gate
  const float* dt_bias = nullptr;  // optional
  bool dt_softplus = false;
  float dt_min = 0.f;  // the clamp of dt' (the official default: 0 to ∞)
  float dt_max = std::numeric_limits<float>::infinity();
  const float* initial_states = nullptr;  // optional
  const std::int32_t* seq_idx = nullptr;  // optional (batch, seqlen): packed sequences, numbered
                                          //   from 0 up along each row
  std::int64_t chunk_size = 256;          // version 2: positions a chunk

  void* y = nullptr;              // required
  float* final_states = nullptr;  // optional
  // Optional, for a backward to come: where version 3 runs the forward it also leaves here, in
  // saved_bytes() bytes, what its backward reads (the output before the gate, the state entering
  // each chunk, for 16-bit inputs what rounding that state left), and a backward given the same
  // parameters reads it instead of running the forward again. Other versions refuse it.
  void* saved = nullptr;

  // Packed sequences' own final states (what the official chunk_state_varlen returns), version 2:
  // one row (batch 1) whose seq_idx numbers `sequences` sequences from 0, cu_seqlens (sequences + 1
  // int32 on the device: where each starts, then seqlen; it must agree with seq_idx), and each
  // sequence's state after its last position in sequence_final_states, (sequences, heads,
  // head_dim, dstate). The initial states belong to sequence 0.
  std::int64_t sequences = 0;
  const std::int32_t* cu_seqlens = nullptr;
  float* sequence_final_states = nullptr;
};

struct BackwardParams {
  ForwardParams forward;       // the forward's inputs (its y is not read; its saved is, if given)
  const void* dy = nullptr;    // required: the gradient of y
  bool deterministic = false;  // no float atomics: the same bits run to run

  void* dx = nullptr;                // required
  void* ddt = nullptr;               // required
  float* dA = nullptr;               // required
  float* dB = nullptr;               // required
  float* dC = nullptr;               // required
  float* dD = nullptr;               // required when D is given
  void* dz = nullptr;                // required when z is given
  float* ddt_bias = nullptr;         // required when dt_bias is given
  float* dinitial_states = nullptr;  // optional; needs initial_states
};
// [/snippet:api_params]

// [snippet:api_functions]
std::string validate(const ForwardParams& params);
std::string validate(const BackwardParams& params);
// The version that runs a call (throws Error for parameters validate() rejects).
Kernel kernel_of(const ForwardParams& params);
Kernel kernel_of(const BackwardParams& params);
const char* name_of(Kernel kernel);

void forward(const ForwardParams& params, cudaStream_t stream = nullptr);
void backward(const BackwardParams& params, cudaStream_t stream = nullptr);
// [/snippet:api_functions]

// The bytes a forward's `saved` must have (throws Error for parameters validate() rejects).
std::size_t saved_bytes(const ForwardParams& params);

// The scratch memory the library keeps between calls, on every device it has run on, and its
// return to the devices (after the work of every call so far; later calls take it again).
std::size_t cached_memory_bytes();
void release_cached_memory();

}  // namespace ssd

// selective_scan.hpp: Mamba's selective scan on the GPU, forward and backward, as a library.
//
// For batch b, channel d, state n and time t (all tensors below use these letters):
//   delta  = softplus(delta_raw + delta_bias[d])   when delta_softplus (softplus(x) = x above 20),
//            delta_raw + delta_bias[d]             otherwise (delta_bias is optional, default 0);
//   Abar   = exp(delta * A[d,n]);
//   h[t]   = Abar * h[t-1] + delta * B[n,t] * u[t],   h[-1] = initial_state (default 0);
//   y[t]   = sum_n C[n,t] * h[n,t] + D[d] * u[t]      (complex A: 2 * Re(sum_n C h) + D u);
//   out[t] = y[t],  out_z[t] = y[t] * silu(z[t])       when z is given.
// State and accumulation are fp32 whatever the input type.
//
// Kernel versions (kVersions below; chapter 08 teaches them in this order). Kernel::automatic,
// the default, picks among them per call (plan_of() says which, and why):
//   1  naive  one thread per (b, d, n), sequential in time
//   2  blocked  the official structure: one block per (b, d), chunks, cub::BlockScan of pairs
//   3  lanes  one lane per state, no block barrier; forward only (its backward is version 2's)
//   4  registers  K states a thread in registers, a decay without branches, a warp's B and C staged once
//   5  ring  both directions fed through a shared-memory ring by the copy engine (sm_90): a producer warp's bulk copies for the forward's walk, tensor copies for a backward from h checkpointed every 8 steps, two exps a state step and none on the way back
//
// Layouts. Every tensor is contiguous along time (stride 1); its other strides are given in
// elements, so slices and non-contiguous batches work: for fp32 tensors (A, constant B and C) a
// complex value counts as one element, for input-type tensors (variable B and C) each real
// number does (a complex (re, im) pair is two). Shapes, with L = seqlen, N = dstate,
// G = groups:
//   u, delta, z, out, out_z, dout, du, ddelta, dz   (batch, dim, L)           input type
//   A                                               (dim, N)                   fp32 (complex: (re, im) pairs)
//   B, C variable                                   (batch, G, N, L)           input type (complex: (L, 2))
//   B, C constant                                   (dim, N)                   fp32 (complex: (re, im) pairs)
//   D, delta_bias                                   (dim)                      fp32
//   initial_state, last_state                       (batch, dim, N)            fp32 (complex: pairs), contiguous
//   chunk_states                                    (batch, dim, chunks, N)    fp32 (complex: pairs), contiguous
//   dA, constant dB and dC                          (dim, N)                   fp32 (complex: pairs), contiguous
//   variable dB and dC                              (batch, G, N, L)           fp32 (complex: (L, 2)), contiguous
//   dD, ddelta_bias                                 (dim)                      fp32
//   dinitial_state, dlast_state                     (batch, dim, N)            fp32 (complex: pairs), contiguous
// Packed sequences (ForwardParams::cu_seqlens): sequences of different lengths laid end to end in
// batch 1, sequence q at steps cu_seqlens[q] ... cu_seqlens[q + 1] - 1, each from its own initial
// state to its own last state (h is reset where a sequence begins); initial_state, last_state and
// their gradients are then (sequences, dim, N). Version 2 takes such calls both ways, version 5
// their forward (B and C both variable, up to 16 states); the other versions hand them to version
// 2, and automatic chooses between the two.
// A sequence can run in pieces: each piece's forward starts from the last state of the piece
// before (initial_state <- last_state), and each piece's backward, last piece first, takes the
// dinitial_state of the piece after it as its dlast_state. The pieces' gradients, per step
// joined and per weight summed, are one call's.
// Channel d reads group d / (dim / G) of a variable B or C. Chunk state c is h after the last
// step of chunk c (steps c * kChunkLength ... (c + 1) * kChunkLength - 1), so the last one equals
// last_state. The gradient with respect to a complex value p is dL/dRe(p) + i dL/dIm(p), the
// convention PyTorch uses; the loss L is real.
//
// Errors. forward() and backward() check the whole parameter struct first and throw
// selective_scan::Error, with one line naming the problem, before anything is launched.
// validate() returns that line (empty when the parameters are fine) without throwing.
// Launch and CUDA errors also throw Error. Both functions are asynchronous on `stream`.
//
// Plans. Which version's body runs each direction of a call is decided once, by plan_of(), from
// the parameters and the current device; forward(), backward() and the workspace sizes all read
// that plan, so they cannot disagree.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <cuda_runtime_api.h>

namespace selective_scan {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class DataType { float32, float16, bfloat16 };

// Which kernel runs a call: automatic (the default), or one of chapter 08's versions by number.
enum class Kernel {
  automatic = 0,  // per call, the version measured fastest for this device, shape and type (plan_of)
  naive = 1,
  blocked = 2,
  lanes = 3,
  registers = 4,
  ring = 5,
};

// [snippet:versions]
// The registry of versions, in the order chapter 08 teaches them. A version that cannot take a
// call hands it on (the README's table): the plan says which body runs. A test checks this list
// against the one at the top of this file.
struct Version {
  Kernel id;
  const char* name;
  const char* idea;
};
inline constexpr Version kVersions[] = {
    {Kernel::naive, "naive", "one thread per (b, d, n), sequential in time"},
    {Kernel::blocked, "blocked", "the official structure: one block per (b, d), chunks, cub::BlockScan of pairs"},
    {Kernel::lanes, "lanes", "one lane per state, no block barrier; forward only (its backward is version 2's)"},
    {Kernel::registers, "registers",
     "K states a thread in registers, a decay without branches, a warp's B and C staged once"},
    {Kernel::ring, "ring",
     "both directions fed through a shared-memory ring by the copy engine (sm_90): a producer warp's bulk copies for "
     "the forward's walk, tensor copies for a backward from h checkpointed every 8 steps, two exps a state step and "
     "none on the way back"},
};
inline constexpr int kVersionCount = int(sizeof kVersions / sizeof kVersions[0]);
// The registry entry of a version (Kernel::automatic has none: nullptr).
constexpr const Version* version_of(Kernel k) {
  for (const Version& v : kVersions)
    if (v.id == k) return &v;
  return nullptr;
}
// [/snippet:versions]

// [snippet:build]
// What this build holds. Version 5 needs sm_90 (bulk and tensor copies, mbarriers): a build for
// older GPUs alone (CMAKE_CUDA_ARCHITECTURES 80, 86, 89 or 80-virtual) compiles no body for its
// kernels. plan_of() then never picks it, and a call that asks for it throws Error.
const char* built_architectures();  // as configured, e.g. "90" or "80-virtual"
bool version_built(Kernel k);       // Kernel::automatic: always
// [/snippet:build]

// Largest supported dstate, and the number of time steps between two stored chunk states.
constexpr int kMaxStates = 256;
constexpr std::int64_t kChunkLength = 2048;
constexpr std::int64_t kStretch = 8;  // steps between two state checkpoints (version 5)

// [snippet:api_params]
struct Sizes {
  std::int64_t batch = 0, dim = 0, seqlen = 0;
  int dstate = 0;
  int groups = 1;  // groups of a variable B or C (a constant one ignores it)
};

// A (batch, rows, seqlen) tensor: u, delta, z, out, ... ; rows = dim.
template <class Pointer>
struct SequenceTensor {
  Pointer data = nullptr;
  DataType type = DataType::float32;  // must equal the call's input_type
  std::int64_t batch_stride = 0;
  std::int64_t dim_stride = 0;
};
using Input = SequenceTensor<const void*>;
using Output = SequenceTensor<void*>;

// B or C: variable (batch, groups, dstate, seqlen) in the input type, or constant (dim, dstate) fp32.
template <class Pointer>
struct StateProjection {
  bool variable = true;
  Pointer data = nullptr;
  DataType type = DataType::float32;  // variable: the call's input_type; constant: float32
  std::int64_t batch_stride = 0, group_stride = 0, state_stride = 0;  // variable
  std::int64_t dim_stride = 0;                                        // constant (state stride 1)
};

struct Flags {
  bool complex = false;  // A (and constant B, C) complex; variable B, C as (re, im) pairs
  bool delta_softplus = false;
};

struct ForwardParams {
  Sizes sizes;
  DataType input_type = DataType::float32;
  Flags flags;
  Kernel kernel = Kernel::automatic;

  Input u, delta;
  Input z;                                   // optional (data == nullptr: no gate)
  const float* A = nullptr;                  // required
  std::int64_t A_dim_stride = 0;             // in floats (complex: in pairs)
  StateProjection<const void*> B, C;         // required
  const float* D = nullptr;                  // optional
  const float* delta_bias = nullptr;         // optional
  const float* initial_state = nullptr;      // optional
  const std::int32_t* cu_seqlens = nullptr;  // optional, on the device: packed sequences (batch 1),
                                             //   sequences + 1 offsets, 0 = cu_seqlens[0] <
                                             //   cu_seqlens[1] < ... = seqlen; the kernels trust
                                             //   them (check_cu_seqlens checks a host copy)
  std::int64_t sequences = 0;                // with cu_seqlens: how many, in [1, seqlen]

  Output out;                          // required: y before the gate
  Output out_z;                        // required when z is given
  float* chunk_states = nullptr;       // required: what backward() recomputes from
  float* last_state = nullptr;         // optional: h after the last step
  float* state_checkpoints = nullptr;  // optional: state_checkpoints_floats(*this) floats; version
                                       //   5's forward then keeps h every 8 steps, and its
                                       //   backward reads them instead of recomputing them
  void* workspace = nullptr;           // optional: forward_workspace_bytes(*this) bytes; without it
                                       //   version 5 does not cut long sequences across blocks.
                                       //   Past 16 states the cut walks slices of states whose
                                       //   outputs are added with float atomics: equal to
                                       //   rounding, not bit-identical run to run
};

struct BackwardParams {
  ForwardParams forward;       // the forward's inputs, and its out and chunk_states
  Input dout;                  // gradient of out_z when z is given, else of out
  bool deterministic = false;  // no float atomics: bit-identical results run to run

  Output du, ddelta;                   // required
  Output dz;                           // required when z is given
  float* dA = nullptr;                 // required (dim, N), contiguous
  float* dB = nullptr;                 // required: variable (batch, G, N, L), constant (dim, N),
  float* dC = nullptr;                 //   contiguous in both cases
  float* dD = nullptr;                 // required when D is given
  float* ddelta_bias = nullptr;        // required when delta_bias is given
  float* dinitial_state = nullptr;     // optional; needs initial_state
  const float* dlast_state = nullptr;  // optional: the gradient of the loss with respect to the
                                       //   forward's last_state (batch, dim, N), fp32 (complex:
                                       //   pairs), contiguous; absent, 0: what a later call over
                                       //   the sequence's next piece hands back (its dinitial_state)

  void* workspace = nullptr;  // backward_workspace_bytes(*this) bytes
};
// [/snippet:api_params]

// [snippet:api_functions]
// Number of chunk states forward() writes: batch * dim * ceil(seqlen / kChunkLength) * dstate
// (times 2 for complex), in floats.
std::int64_t chunk_states_floats(const Sizes& sizes, bool complex);
// The three sizes below are the call's plan's (plan_of), for the current device: ask with the
// device that will run the call. They need only the sizes, flags and version to be set, so a
// caller can ask before allocating the tensors; the pointers' alignment can still change the
// plan (version 5's backward wants its rows on 16 bytes), so ask again once they are set.
// The workspace backward() needs: per-channel partial sums, and the chosen backward's scratch
// (version 4: tile states; version 5: checkpoints, the summaries of cut sequences, and past 16
// states two floats a channel and step for the sums its slices of states share).
std::size_t backward_workspace_bytes(const BackwardParams& params);
// The floats of h every kStretch steps that forward() writes to state_checkpoints: batch * dim *
// ceil(seqlen / kStretch) * dstate where the plan's forward is version 5's (real A, B or C
// variable -- both past 16 states --, sm_90), else 0. An explicit version must then get none;
// Kernel::automatic takes them as an offer, used where its plan runs version 5 both ways (else
// 0: its forward would write them for a backward that does not read them). Version
// 5's backward reads them where it takes the call, and skips the sweep that would otherwise
// recompute them.
std::int64_t state_checkpoints_floats(const ForwardParams& params);
// The workspace forward() may use: version 5 carries the state between the time segments of a
// long sequence through it when the channels alone cannot fill the device (0 when it would not).
std::size_t forward_workspace_bytes(const ForwardParams& params);

std::string validate(const ForwardParams& params);
std::string validate(const BackwardParams& params);
// The checks of packed sequences' offsets that validate() cannot make without reading the device:
// "" when `cu_seqlens` (a host copy of sequences + 1 values) runs from 0 to seqlen, strictly
// increasing (every sequence has a step), else one line naming the first offset that does not.
std::string check_cu_seqlens(const std::int32_t* cu_seqlens, std::int64_t sequences, std::int64_t seqlen);

// [snippet:plan]
// What a call runs: the version whose body takes each direction, and the memory it asks for.
struct Plan {
  Kernel asked = Kernel::automatic;           // the call's ForwardParams::kernel
  Kernel forward = Kernel::blocked;           // the version whose kernel runs the forward
  Kernel backward = Kernel::blocked;          // and the backward's (from a ForwardParams: as a backward with
                                              //   deterministic off and dout laid out like u would run)
  int forward_segments = 1;                   // time segments each sequence is cut into across blocks, with
                                              //   the workspace this call was given (1: not cut)
  int backward_segments = 1;                  // and the backward's (version 5's, when too few channels)
  bool backward_reads_kept_states = false;    // the backward reads state_checkpoints, not recomputes them
  std::int64_t state_checkpoints_floats = 0;  // what forward() may keep (0: nothing)
  std::size_t forward_workspace_bytes = 0;    // what forward() may use (0: none)
  std::size_t backward_workspace_bytes = 0;   // what backward() needs
  std::string why;                            // one line: why these versions
  // "v5" when one version takes both directions, else "v5 fwd, v4 bwd"; "auto: " first when
  // automatic chose; ", segments 16 fwd 6 bwd" where a direction cuts; ", kept h" where the
  // backward reads them.
  std::string summary() const;
};
// The plan of a call on the current device (throws Error for parameters validate() rejects).
Plan plan_of(const ForwardParams& params);
Plan plan_of(const BackwardParams& params);
// [/snippet:plan]

void forward(const ForwardParams& params, cudaStream_t stream = nullptr);
void backward(const BackwardParams& params, cudaStream_t stream = nullptr);
// [/snippet:api_functions]

}  // namespace selective_scan

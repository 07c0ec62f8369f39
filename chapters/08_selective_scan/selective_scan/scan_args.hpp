// scan_args.hpp: what the kernels see of a call -- the API's parameter structs flattened into
// one plain struct (pointers, 64-bit sizes and strides, flags) that is passed by value to every
// launch. api.cpp fills it after validate() has accepted the parameters.
#pragma once

#include "selective_scan.hpp"

#include <cstdint>
#include <string>

namespace selective_scan::detail {

struct SequenceArg {
  const void* data;
  std::int64_t batch_stride, dim_stride;
};
struct MutableSequenceArg {
  void* data;
  std::int64_t batch_stride, dim_stride;
};
struct ProjectionArg {
  bool variable;
  const void* data;
  std::int64_t batch_stride, group_stride, state_stride, dim_stride;
};

struct ScanArgs {
  std::int64_t batch, dim, seqlen;
  int dstate, groups;
  std::int64_t dims_per_group;  // dim / groups
  std::int64_t chunks;          // ceil(seqlen / kChunkLength)
  bool delta_softplus;

  SequenceArg u, delta, z;  // z.data == nullptr: no gate
  const float* A;
  std::int64_t A_dim_stride;
  ProjectionArg B, C;
  const float* D;           // may be null
  const float* delta_bias;  // may be null
  const float* initial_state;
  const std::int32_t* cu_seqlens;  // null: each batch row is one sequence
  std::int64_t sequences;          // with cu_seqlens: how many (batch is 1)

  MutableSequenceArg out, out_z;
  float* chunk_states;
  float* last_state;
  float* state_checkpoints;  // h before steps 0, kStretch, 2 kStretch, ... (null: not kept)
  void* workspace;           // the forward's (optional), or the backward's (required where it needs one)

  // backward only
  SequenceArg dout;
  MutableSequenceArg du, ddelta, dz;
  float *dA, *dB, *dC, *dD, *ddelta_bias, *dinitial_state;
  const float* dlast_state;  // may be null: dL/dh after the last step, 0
  bool deterministic;
};

// The kept states (state_checkpoints): per channel bd = b * dim + d, kept_rows(seqlen) rows of
// dstate floats, row r holding h before step r * kStretch, at kept_row(a, bd, r * kStretch). The
// forward writes them, the backward reads them, state_checkpoints_floats() sizes them.
constexpr std::int64_t kept_rows(std::int64_t seqlen) { return (seqlen + kStretch - 1) / kStretch; }
constexpr std::int64_t kept_row(const ScanArgs& a, std::int64_t bd, std::int64_t t) {  // t: a multiple of kStretch
  return (bd * kept_rows(a.seqlen) + t / kStretch) * a.dstate;
}

ScanArgs make_args(const ForwardParams& params);
ScanArgs make_args(const BackwardParams& params);

// The kernels of each version, per input type and real/complex (defined in the .cu files).
template <class Input, bool kComplex>
void naive_forward(const ScanArgs& args, cudaStream_t stream);
template <class Input, bool kComplex>
void naive_backward(const ScanArgs& args, cudaStream_t stream);
template <class Input, bool kComplex>
void blocked_forward(const ScanArgs& args, cudaStream_t stream);
template <class Input, bool kComplex>
void blocked_backward(const ScanArgs& args, cudaStream_t stream);
template <class Input, bool kComplex>
void lanes_forward(const ScanArgs& args, cudaStream_t stream);
template <class Input, bool kComplex>
void registers_forward(const ScanArgs& args, cudaStream_t stream);
std::int64_t registers_forward_blocks(const ScanArgs& args);  // the blocks it launches
// How version 5's forward runs a call: its kernel, the kernel for cut sequences, their shared
// memory and threads, a block's channels, and the time segments each sequence is cut into when
// the call gives the workspace (1: it would not cut). The plan decides it once, and the launch
// runs what it says.
struct RingLaunch {
  const void* kernel = nullptr;
  const void* cut_kernel = nullptr;
  int shared_bytes = 0, cut_shared_bytes = 0, threads = 0, block_channels = 0, segments = 1;
};
// Version 5's forward: version 4's walk fed by a producer warp through a ring of shared-memory
// tiles (sm_90 and newer), for the calls ring_forward_refusal() accepts (the plan sends no other).
RingLaunch ring_forward_launch(const ScanArgs& args, DataType type);
template <class Input>
void ring_forward(const ScanArgs& args, const RingLaunch& launch, cudaStream_t stream);
// Why version 5's forward cannot take a call on the current device ("" when it can).
std::string ring_forward_refusal(const ScanArgs& args, bool is_complex);
// The workspace that carries the state from segment to segment.
std::size_t ring_forward_workspace_bytes(const ScanArgs& args, int segments);
// Its work items: a block's channels over one time segment (groups of channels x segments).
std::int64_t ring_forward_items(const ScanArgs& args, int segments);
// Version 4's backward: real A, up to 16 states, no deterministic flag, a group's channels a
// multiple of four; registers_backward_refusal() says why a call is not one of those ("" if it is).
std::string registers_backward_refusal(const ScanArgs& args, bool is_complex);
std::size_t registers_backward_scratch_bytes(const ScanArgs& args);  // its workspace past the partial sums
std::int64_t registers_backward_items(const ScanArgs& args);         // groups of a block's channels
template <class Input>
void registers_backward(const ScanArgs& args, cudaStream_t stream);
// Version 5's backward: real A (past 16 states B and C both variable), no deterministic flag,
// rows on 16 bytes, sm_90; h checkpointed every 8 steps in the workspace, and past 16 states the
// per-step sums of its slices there too.
std::string checkpoints_backward_refusal(const ScanArgs& args, bool is_complex);  // "": it takes the call
// Its grid: the blocks, the time segments each sequence is cut into (1: not cut) and the steps
// they start on (a tile or a chunk). The plan decides it once, and the launch runs what it says.
struct BackwardGrid {
  unsigned blocks = 1;
  int segments = 1;
  int granule = 0;
};
BackwardGrid checkpoints_backward_grid(const ScanArgs& args);
// Its workspace past the partial sums, and its work items (groups of a block's channels x time
// segments), on that grid.
std::size_t checkpoints_backward_scratch_bytes(const ScanArgs& args, const BackwardGrid& grid);
std::int64_t checkpoints_backward_items(const ScanArgs& args, const BackwardGrid& grid);
template <class Input>
void checkpoints_backward(const ScanArgs& args, const BackwardGrid& grid, cudaStream_t stream);

// Whether every input row the bulk and tensor copies read starts on 16 bytes (data and strides,
// at `element_bytes` a value); with `gradients`, dout and (with a gate) the forward's output too.
bool rows_on_16_bytes(const ScanArgs& args, std::int64_t element_bytes, bool gradients);

// The workspace the backward of version `body` needs (bytes): the per-(b, d) partial sums that
// the fixed-order reductions of reductions.cu finish, and the version's own scratch.
// `grid`: version 5's, where it is the body.
std::size_t workspace_bytes(const ScanArgs& args, Kernel body, bool is_complex, const BackwardGrid& grid);

}  // namespace selective_scan::detail

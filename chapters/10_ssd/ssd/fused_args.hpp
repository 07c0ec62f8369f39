// fused_args.hpp: the arguments of the fused kernels' forward walks, version 3's (v3_fused.cu) and
// version 4's (v4_warpgroup.cu): the call's tensors and options, and how the walk is cut.
#pragma once

#include "ssd.hpp"

#include <cstdint>

namespace ssd::detail {

struct FusedArgs {
  Sizes s;
  const void *x, *dt, *B, *C, *z;
  void* y;
  const float *A, *D, *dt_bias, *initial_states;
  float* final_states;
  const std::int32_t* seq_idx;
  bool D_per_channel, dt_softplus;
  float dt_min, dt_max;
  int channel_blocks;  // blocks a head: head_dim / kP rounded up
  // A row's segments and the chunks of each (the last may have fewer); with more than one, each
  // segment's state from zero and its total decay: (segments − 1, batch, heads, head_dim, dstate)
  // and (segments − 1, batch, heads).
  int segments;
  std::int64_t segment_chunks;
  float *segment_states, *segment_decays;
  // Where given, the state entering each chunk, in the input type as step 2 reads it (rounded to
  // 16 bits, or fp32's hi + lo):
  // (batch, heads, chunks, head_dim, dstate). The backward starts from these.
  void* entering_states;
  // Where given (a forward that keeps its saved, with z): y before its gate, laid out as y, which
  // the backward reads as u.
  void* ungated_y;
  // Whether 16-byte accesses may read (write) the rows of x, z and y, of B and C, and of the
  // entering states.
  bool x_in_vectors, bc_in_vectors, states_in_vectors;
  // Whether version 3 multiplies 16-bit inputs' weighted x in step 4 as hi + lo (where the final
  // states are asked for, or the entering states kept, and the tile fits; version 4 does not read it).
  bool split_weighted_x;
  // Where given (16-bit inputs' entering states kept): what rounding each entering state to 16 bits
  // left, as each lane holds it (v3_tiles.cuh, store_remainders), for the backward's sums that
  // take the passed state.
  void* entering_lo = nullptr;
};

// A forward call's arguments, its rows walked whole (one segment, no entering states).
FusedArgs fused_args_of(const ForwardParams& p);

}  // namespace ssd::detail

// What the chunked SSD forward costs, as a function of the chunk size Q: the FLOPs of each of its
// products and the bytes that a fused kernel must move at least. The trade it shows: the
// intra-chunk products grow with Q (about 2·L·Q·(n/heads_per_group + p) a head: quadratic inside
// a chunk), the state passing shrinks with it (2·p·n a chunk), and the chunk-state and
// state-to-output products stay at 2·L·p·n a head whatever Q is; the bytes a fused kernel must
// move do not depend on Q at all, while the chunk states that a pipeline of separate kernels
// writes and reads back fall as 1/Q.
//
// Counts, a multiply-add being two FLOPs, with q = a chunk's own length (the last chunk counts
// only its real positions, L mod Q where Q does not divide L):
//   intra-chunk C·Bᵀ        2·q²·n   a chunk, batch row and group (its heads share it)
//   intra-chunk output      2·q²·p   a chunk, batch row and head: (Λ ∘ C·Bᵀ) times dt'·x
//   chunk states            2·q·p·n  a chunk, batch row and head: (dt'·decay·x)ᵀ B
//   state passing           2·p·n    a chunk, batch row and head: decay·h + s
//   state to output         2·q·n·p  a chunk, batch row and head: C · h_prevᵀ
// The quadratic products count the whole q × q tile, as a tensor-core kernel computes it; the
// causal half alone would be about half. Element-wise work (exp, the masks, D, the gate) is
// left out: it is O(L·h·p) beside the products' O(L·h·p·n).
#pragma once

#include <cstdint>

namespace ch10 {

struct CostShape {
  std::int64_t batch = 1, seqlen = 1;
  int heads = 1, head_dim = 64, groups = 1, dstate = 128;
  int input_bytes = 2;  // x, dt, B, C, z and y: 2 (fp16, bf16) or 4 (fp32)
  int state_bytes = 4;  // the initial, final and chunk states
  bool has_z = false, has_D = true, has_dt_bias = true, has_seq_idx = false;  // D per head
  bool has_initial_states = false, has_final_states = true;
};

struct SsdCost {
  std::int64_t chunk = 0, chunks = 0;
  std::int64_t intra_chunk_cb_flops = 0;
  std::int64_t intra_chunk_output_flops = 0;
  std::int64_t chunk_state_flops = 0;
  std::int64_t state_passing_flops = 0;
  std::int64_t state_to_output_flops = 0;
  // Every input read once and every output written once: x, dt, B, C (z, seq_idx as int32, the
  // initial states), A, D and dt_bias in fp32; y (and the final states).
  std::int64_t fused_bytes = 0;
  // Every chunk's state (batch, chunks, heads, head_dim, dstate) written once.
  std::int64_t chunk_state_bytes = 0;

  std::int64_t intra_chunk_flops() const { return intra_chunk_cb_flops + intra_chunk_output_flops; }
  std::int64_t total_flops() const {
    return intra_chunk_flops() + chunk_state_flops + state_passing_flops + state_to_output_flops;
  }
  // FLOPs per byte of the fused floor.
  double intensity() const { return double(total_flops()) / double(fused_bytes); }
};

// chunk ≥ 1 (above seqlen: one chunk); throws std::invalid_argument on a size below 1 or heads
// not divisible by groups.
SsdCost ssd_cost_model(const CostShape& shape, std::int64_t chunk);

}  // namespace ch10

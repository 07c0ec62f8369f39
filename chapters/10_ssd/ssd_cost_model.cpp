#include "ssd_cost_model.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ch10 {

SsdCost ssd_cost_model(const CostShape& shape, std::int64_t chunk) {
  const CostShape& s = shape;
  if (chunk < 1)
    throw std::invalid_argument("ch10 SSD cost model: chunk must be at least 1, got " + std::to_string(chunk));
  if (s.batch < 1 || s.seqlen < 1 || s.heads < 1 || s.head_dim < 1 || s.groups < 1 || s.dstate < 1)
    throw std::invalid_argument("ch10 SSD cost model: every size must be at least 1");
  if (s.heads % s.groups != 0) throw std::invalid_argument("ch10 SSD cost model: heads must be divisible by groups");

  const std::int64_t L = s.seqlen, P = s.head_dim, N = s.dstate;
  const std::int64_t heads = s.batch * s.heads, groups = s.batch * s.groups;  // counted over the batch
  SsdCost cost;
  cost.chunk = std::min(chunk, L);
  cost.chunks = (L + cost.chunk - 1) / cost.chunk;
  // Σ q² over the chunks: the full ones and the shorter last one.
  const std::int64_t last = L - (cost.chunks - 1) * cost.chunk;
  const std::int64_t squares = (cost.chunks - 1) * cost.chunk * cost.chunk + last * last;

  cost.intra_chunk_cb_flops = 2 * squares * N * groups;
  cost.intra_chunk_output_flops = 2 * squares * P * heads;
  cost.chunk_state_flops = 2 * L * P * N * heads;  // Σ q = L
  cost.state_passing_flops = 2 * cost.chunks * P * N * heads;
  cost.state_to_output_flops = 2 * L * N * P * heads;

  const std::int64_t sequence = s.batch * L * s.heads * P * s.input_bytes;  // x, z or y
  const std::int64_t states = heads * P * N * s.state_bytes;
  cost.fused_bytes = sequence * (s.has_z ? 3 : 2)                                       // x (z) y
                     + s.batch * L * s.heads * s.input_bytes                            // dt
                     + 2 * s.batch * L * s.groups * N * s.input_bytes                   // B, C
                     + (s.has_seq_idx ? s.batch * L * 4 : 0)                            // seq_idx
                     + s.heads * 4 * (1 + (s.has_D ? 1 : 0) + (s.has_dt_bias ? 1 : 0))  // A, D, dt_bias
                     + (s.has_initial_states ? states : 0) + (s.has_final_states ? states : 0);
  cost.chunk_state_bytes = cost.chunks * states;
  return cost;
}

}  // namespace ch10

// The backward of the chunked SSD (ssd_chunked.hpp) in fp64, stage by stage, in the reverse order
// of the forward: every function returns what a GPU kernel of the same backward stage would
// produce, so that such a kernel can be checked on its own. Together they give the gradients of
// ssd_backward (ssd_backward.hpp), to rounding. Write du for ∂L/∂u (u: the output before the gate),
// h_{c−1} for the state entering chunk c, s_c for chunk c's own state, acs for the cumulative decay
// (ssd_chunked.hpp), l for a chunk's last position.
//
//   5' gate_backward          du = dy silu(z), dz = dy u silu'(z), dD = Σ du x, dx += D du.
//   5  chunk_scan_backward    through y_i = Σ_j exp(acs_i − acs_j)(C_i·B_j) dt'_j x_j + exp(acs_i) C_i·h_{c−1}:
//                             into x, dt', B and C by the quadratic block, into C by the state-to-
//                             output term, into acs by both, and into the entering states:
//                             dentering_c = Σ_i exp(acs_i) du_i C_iᵀ (the official _chunk_scan_bwd_dstates).
//   3  pass_states_backward   the reverse scan across chunks of h_c = exp(acs_l) h_{c−1} + s_c:
//                             from dh_{last} = dfinal, ds_c = dh_c, and the total gradient of the
//                             entering state dh_{c−1} = dentering_c + exp(acs_l) dh_c (where the state
//                             carries through chunk c); dinitial_states = dh_{−1}; into acs_l.
//   2  chunk_states_backward  through s_c = Σ_j exp(acs_l − acs_j) dt'_j x_j B_jᵀ: into x, dt', B, acs.
//   1  chunk_cumsum_backward  acs_t = Σ_{s ≤ t in the chunk} dt'_s A: ∂/∂(dt'_s A) = Σ_{t ≥ s} ∂/∂acs_t,
//                             into dt' and A (dA summed over positions), then dt's clamp, softplus
//                             and bias to the raw dt and dt_bias.
// With seq_idx every term is masked as in the forward (ssd_chunked.hpp), so a gradient crosses
// neither a reset inside a chunk nor one at a chunk's edge.
#pragma once

#include "ssd_backward.hpp"
#include "ssd_chunked.hpp"

#include <cstdint>
#include <vector>

namespace ch10 {

// The gradients one stage leaves, each empty where the stage has none: dx, dB, dC laid out as the
// inputs; ddt (∂L/∂dt', before the clamp's and softplus's chain) and ddA_cumsum (∂L/∂acs) in
// ChunkCumsum's layout (batch, heads, seqlen).
struct StageGradients {
  std::vector<double> dx, ddt, dB, dC, ddA_cumsum;
};

struct GateGradients {
  std::vector<double> du;  // ∂L/∂u, laid out as x
  std::vector<double> dx;  // the skip's share, D du
  std::vector<double> dz, dD;
};

// The reverse scan's results, states laid out (batch, chunks, heads, head_dim, dstate).
struct PassStatesGradients {
  std::vector<double> dstates;          // ∂L/∂s_c = ∂L/∂h_c, the gradient of each chunk's own state
  std::vector<double> dentering;        // ∂L/∂h_{c−1} in full: the gradient of the state entering c
  std::vector<double> ddA_cumsum;       // into acs_l of every chunk (zero elsewhere), as StageGradients
  std::vector<double> dinitial_states;  // dentering of chunk 0, where the problem has initial states
};

// u: the output before the gate, (batch, seqlen, heads, head_dim) (chunk_scan of p without z).
GateGradients gate_backward(const Problem& p, const std::vector<double>& dy, const std::vector<double>& u);
// The entering states' share of the gradient comes back in `dentering`, (batch, chunks, heads,
// head_dim, dstate); the rest in the StageGradients (dx, ddt, dB, dC, ddA_cumsum).
StageGradients chunk_scan_backward(const Problem& p, const Chunking& chunks, const ChunkCumsum& cumsum,
                                   const PassedStates& passed, const std::vector<double>& du,
                                   std::vector<double>& dentering);
PassStatesGradients pass_states_backward(const Problem& p, const Chunking& chunks, const ChunkCumsum& cumsum,
                                         const PassedStates& passed, const std::vector<double>& dentering,
                                         const std::vector<double>& dfinal_states);
StageGradients chunk_states_backward(const Problem& p, const Chunking& chunks, const ChunkCumsum& cumsum,
                                     const std::vector<double>& dstates);
// ddt and ddA_cumsum in ChunkCumsum's layout; the result's ddt (raw dt, laid out as p.dt), dA and
// ddt_bias are set, the other fields left empty.
Gradients chunk_cumsum_backward(const Problem& p, const Chunking& chunks, const ChunkCumsum& cumsum,
                                const std::vector<double>& ddt, const std::vector<double>& ddA_cumsum);

// Every stage's backward, for inspection, and the gradients they sum to.
struct ChunkedBackward {
  GateGradients gate;
  StageGradients scan;
  std::vector<double> dentering_from_outputs;  // chunk_scan_backward's dentering
  PassStatesGradients passed;
  StageGradients states;
  Gradients grad;  // as ssd_backward returns them
};

// dy and dfinal_states as ssd_backward takes them; chunk_size ≥ 1.
ChunkedBackward ssd_chunked_backward_stages(const Problem& p, const std::vector<double>& dy,
                                            const std::vector<double>& dfinal_states, std::int64_t chunk_size);
Gradients ssd_chunked_backward(const Problem& p, const std::vector<double>& dy,
                               const std::vector<double>& dfinal_states, std::int64_t chunk_size);

}  // namespace ch10

// The chunked SSD (ssd_chunked in ssd_reference.hpp) in the five stages of the official forward
// (mamba_ssm's ssd_combined.py: chunk cumsum, chunk state, state passing, bmm chunk, chunk
// scan), each a function of its own whose output a GPU kernel of the same stage can be checked
// against. Cut the sequence into chunks of `size` positions (the last one shorter where size does
// not divide seqlen); write a_t = dt'_t A and, inside a chunk, acs_t = a_{begin} + … + a_t.
//
//   1 chunk_cumsum   dt' and acs.
//   2 chunk_states   what each chunk's own inputs leave in the state at its last position l,
//                    starting from zero: s_c = Σ_j exp(acs_l − acs_j) dt'_j x_j B_jᵀ.
//   3 pass_states    the scan across chunks, h_c = exp(acs_l) h_{c−1} + s_c from h_{−1} = h0 (or 0):
//                    the state entering every chunk, and the final states.
//   4 chunk_cb       C_i · B_j for every i, j of a chunk (a group's, shared by its heads).
//   5 chunk_scan     y_i = Σ_{j ≤ i} exp(acs_i − acs_j) (C_i · B_j) dt'_j x_j      (within the chunk)
//                        + exp(acs_i) C_i · h_{c−1}                              (from the chunks before)
//                        + D x_i, then the gate.
// With seq_idx a term counts only where its two ends lie in one sequence: j and i (or l) in
// stages 2 and 5, the chunk's last position and the one before the chunk in stage 3, i and the
// position before the chunk for the state-to-output term (the position before 0 is numbered 0).
#pragma once

#include "ssd_problem.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ch10 {

struct Chunking {
  std::int64_t seqlen = 1, size = 1;
  std::int64_t count() const { return (seqlen + size - 1) / size; }
  std::int64_t begin(std::int64_t c) const { return c * size; }
  std::int64_t end(std::int64_t c) const { return std::min(seqlen, (c + 1) * size); }
};

// Offsets into the chunked layouts below: cumulative sums (batch, heads, seqlen), states (batch,
// chunks, heads, head_dim, dstate) and C·B (batch, chunks, groups, size, size).
struct ChunkIndex {
  Shape s;
  Chunking chunks;
  std::size_t cumsum(std::int64_t b, int h, std::int64_t t) const {
    return std::size_t((b * s.heads + h) * s.seqlen + t);
  }
  std::size_t state(std::int64_t b, std::int64_t c, int h, int i, int k) const {
    return std::size_t((((b * chunks.count() + c) * s.heads + h) * s.head_dim + i) * s.dstate + k);
  }
  std::size_t cb(std::int64_t b, std::int64_t c, int g, std::int64_t i, std::int64_t j) const {
    return std::size_t((((b * chunks.count() + c) * s.groups + g) * chunks.size + i) * chunks.size + j);
  }
  std::size_t states_size() const {
    return std::size_t(s.batch * chunks.count() * s.heads * s.head_dim) * std::size_t(s.dstate);
  }
};

// The chunking of p's sequence into chunks of chunk_size (one chunk of seqlen where chunk_size is
// larger); throws std::invalid_argument below 1.
Chunking chunking(const Problem& p, std::int64_t chunk_size);

struct ChunkCumsum {
  std::vector<double> dt;         // dt', (batch, heads, seqlen)
  std::vector<double> dA_cumsum;  // acs, (batch, heads, seqlen), restarting at every chunk
};

// Chunk states, the passed states and the states entering each chunk: (batch, chunks, heads,
// head_dim, dstate) as the official kernels lay them out. C·B: (batch, chunks, groups, size,
// size), zero where i or j lies past the sequence's end.
struct PassedStates {
  std::vector<double> entering;      // h_{c−1} for every chunk c
  std::vector<double> final_states;  // (batch, heads, head_dim, dstate)
};

ChunkCumsum chunk_cumsum(const Problem& p, const Chunking& chunks);
std::vector<double> chunk_states(const Problem& p, const Chunking& chunks, const ChunkCumsum& cumsum);
PassedStates pass_states(const Problem& p, const Chunking& chunks, const ChunkCumsum& cumsum,
                         const std::vector<double>& states);
std::vector<double> chunk_cb(const Problem& p, const Chunking& chunks);
// y, (batch, seqlen, heads, head_dim).
std::vector<double> chunk_scan(const Problem& p, const Chunking& chunks, const ChunkCumsum& cumsum,
                               const std::vector<double>& cb, const PassedStates& passed);

}  // namespace ch10

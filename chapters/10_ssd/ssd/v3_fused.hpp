// Version 3: the chunked SSD fused on the tensor cores: fp16 and bf16 inputs up to 256 states, fp32
// up to 128 (as bf16 pairs), forward and backward.
// The forward is one kernel (v3_fused.cu says how); the backward (v3_fused_backward.cu) walks the
// chunks in reverse from the states the forward leaves at each chunk's start.
#pragma once

#include "ssd.hpp"

#include <cstddef>
#include <string>

namespace ssd::detail {

std::string fused_refuses(const ForwardParams& p);
void fused_forward(const ForwardParams& p, cudaStream_t stream);
// Where in a forward's `saved` u, the entering states and their remainders lie, and how many bytes
// it needs.
struct SavedParts {
  void* u;
  // The state entering every chunk of 64, in the input type (16 bits, or fp32's hi + lo), (batch,
  // heads, chunks, head_dim, dstate); for 16-bit inputs, what rounding each to 16 bits left, as
  // the walk's lanes hold it (v3_tiles.cuh, store_remainders), else null.
  void *entering_states, *entering_lo;
};
SavedParts saved_parts(const ForwardParams& p, void* saved);
std::size_t fused_saved_bytes(const ForwardParams& p);
// The forward without the gate, its output into parts.u (laid out as y), and the entering states
// with their remainders: what the backward reads.
void fused_forward_states(const ForwardParams& p, const SavedParts& parts, cudaStream_t stream);
// The forward that writes y and keeps the rest in p.saved for its backward (u only with a gate).
void fused_forward_saving(const ForwardParams& p, cudaStream_t stream);

std::string fused_backward_refuses(const BackwardParams& p);
void fused_backward(const BackwardParams& p, cudaStream_t stream);

}  // namespace ssd::detail

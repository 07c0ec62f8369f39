// The element-wise and layout kernels around version 1: Mamba-2's tensors are laid out along time
// second (batch, seqlen, heads, head_dim), chapter 08's along time last (batch, dim, seqlen). Each
// kernel here moves or folds one tensor between the two; none of them is where the time goes.
#pragma once

#include "ssd.hpp"

#include <cstdint>
#include <initializer_list>

namespace ssd::detail {

// (outer, rows, cols) -> (outer, cols, rows), elements of `bytes` bytes (2 or 4) moved as bits.
void transpose(const void* in, void* out, std::int64_t outer, std::int64_t rows, std::int64_t cols, int bytes,
               cudaStream_t stream);

// out[h * repeat + j] = in[h] for every head h and j < repeat: a per-head value given to every
// channel (and state) of the head, as chapter 08 takes it.
void repeat_per_head(const float* in, float* out, int heads, std::int64_t repeat, cudaStream_t stream);

// Every float of each buffer set to 0, in one launch: the sums a backward adds to with atomics,
// which would otherwise take a memset each. A buffer of count 0 (or a null one) is left alone.
struct Zeroed {
  float* at;
  std::int64_t count;
};
void zero_floats(std::initializer_list<Zeroed> buffers, cudaStream_t stream);

// out[s] = the sum of in[s * length .. (s + 1) * length), in a fixed order in fp64, rounded to
// fp32 once (one block a segment).
void sum_segments(const float* in, float* out, std::int64_t segments, std::int64_t length, cudaStream_t stream);

// out[i] = in[i] rounded to fp32: sums a backward added to in fp64, given to the caller.
void round_sums(const double* in, float* out, std::int64_t count, cudaStream_t stream);

// dt (batch, seqlen, heads) -> delta (batch, heads * head_dim, seqlen): dt' of every head given
// to each of its channels, in the input type.
void expand_step_sizes(const ForwardParams& p, void* delta, cudaStream_t stream);

// ddelta (batch, heads * head_dim, seqlen) in the input type -> per_head (batch, seqlen, heads)
// in fp32: the sum over each head's channels, the head's ∂L/∂dt'.
void sum_head_gradients(const ForwardParams& p, const void* ddelta, float* per_head, cudaStream_t stream);

// ddt_prime (batch, seqlen, heads), ∂L/∂dt' in fp32 -> ddt in the input type, through the clamp
// and softplus; where ddt_by_head is given, the same in fp32 laid out (heads, batch, seqlen), what
// ddt_bias sums.
void fold_step_gradients(const ForwardParams& p, const float* ddt_prime, void* ddt, float* ddt_by_head,
                         cudaStream_t stream);

}  // namespace ssd::detail

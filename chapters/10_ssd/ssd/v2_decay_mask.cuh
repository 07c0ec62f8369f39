// Version 2's stage 4, its second half: C Bᵀ masked and decayed into M, a head at a time.
#pragma once

#include "v2_geometry.cuh"

#include <cuda_runtime.h>

#include <cstdint>

namespace ssd::detail {

// M (batch, chunks, heads, Q, Q) from cb = C Bᵀ (batch, chunks, groups, Q, Q), dt' and acs
// (batch, heads, padded) and the sequence numbers (batch, padded); launched on `stream`.
void decay_mask(const float* cb, const float* dt, const float* acs, const std::int32_t* seq, float* M,
                const Geometry& g, cudaStream_t stream);

}  // namespace ssd::detail

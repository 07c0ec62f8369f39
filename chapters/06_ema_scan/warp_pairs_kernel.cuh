// Version 2's kernel, declared here and defined in warp_pairs_kernel.cu -- exercise 3, whose
// stub is exercises/warp_pairs_kernel.cu. ema_kernels.cu launches it.
#pragma once

#include "ema_kernels.hpp"

#include <cstddef>

namespace ema {

// One block of kWarpPairsThreads threads per sequence (blockIdx.x; sequence s at
// [s·length, (s+1)·length) of a, b and h), walking it in chunks of kWarpPairsThreads ×
// 4·kWarpPairsVectors pairs: chapter 05's tile scan with the pair operator, and the state h
// carried from chunk to chunk. (Not a template: a kernel template defined in another file cannot
// be launched from ema_kernels.cu without separate compilation.)
__global__ void ema_warp_pairs(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ h,
                               std::size_t length);

}  // namespace ema

// Version 2's kernel, declared here and defined in hillis_steele_kernel.cu -- exercise 4, whose
// stub is exercises/hillis_steele_kernel.cu. scan_kernels.cu launches it.
#pragma once

#include "scan_kernels.hpp"

#include <cstddef>

namespace scan {

// (Not a template: a kernel template defined in another file cannot be launched from
// scan_kernels.cu without separate compilation.)
// Inclusive scan of in[0, n) into out, by ONE block of kHillisSteeleThreads threads: Hillis-Steele
// in shared memory on each tile of kHillisSteeleThreads elements, the running total carried from
// tile to tile.
__global__ void scan_hillis_steele(const float* __restrict__ in, float* __restrict__ out, std::size_t n);

}  // namespace scan

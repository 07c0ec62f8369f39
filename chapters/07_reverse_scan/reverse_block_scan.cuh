// Version 3's kernel, declared here and defined in reverse_block_scan.cu -- exercise 4, whose
// stub is exercises/reverse_block_scan.cu. reverse_kernels.cu launches it.
#pragma once

#include "reverse_kernels.hpp"

namespace rscan {

// One block of kBlockThreads threads per sequence (blockIdx.x), walking its chunks of
// kBlockThreads steps from the last to the first with block_reverse_scan (block_scan.cuh) and
// the g carried in from the chunk after; writes p.grad_b = g and p.grad_a = g·h_{k−1}.
__global__ void reverse_block_scan_kernel(DeviceProblem p);

}  // namespace rscan

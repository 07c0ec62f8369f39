// One warpgroup product on the GPU through warpgroup_mma.cuh, for the test that checks the
// wrapper before version 4 is built on it: D = A B with A and B 64 × 64, over four k-steps, in
// each way the wrapper can be given its operands.
#pragma once

namespace ch10_test {

enum class WarpgroupOperands {
  shared_k_major,     // A and B in shared memory, both K-major (A's rows, B's columns hold k)
  shared_b_mn_major,  // A K-major, B MN-major (B's rows hold n)
  shared_mn_major,    // both MN-major (A's rows of the tile hold m for one k)
  registers_a,        // A from registers, B MN-major
};

// Launches one warpgroup on D = A B (device pointers, 64 × 64 each, row-major: A m × k, B k × n),
// A and B rounded to fp16 (`half`) or bf16 first; `narrow`: only D's columns 32..63, a product 32
// wide (the others are left as they were). *built becomes 1 where this build's code for the GPU has
// wgmma (sm_90a), else 0 and D is left as it was. Only for an sm_90 GPU.
void launch_warpgroup_product(WarpgroupOperands operands, bool half, bool narrow, const float* a, const float* b,
                              float* d, int* built);

}  // namespace ch10_test

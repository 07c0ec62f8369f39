// Exercise 4: version 2's kernel -- Hillis-Steele in one block, on the GPU.
//
// ONE block of kHillisSteeleThreads (1024) threads scans the whole array: y_i = x_0 + ... + x_i.
// It walks the array tile by tile, 1024 elements a tile, thread j owning element base + j:
//   1. load the tile into shared memory (elements past n must not change any sum);
//   2. run the Hillis-Steele steps offset = 1, 2, 4, ..., 512: element j adds element
//      j - offset when there is one, reading only values from before the step (exercise 1 did
//      one step on the CPU). Every thread reads what others write: where must the block wait?
//   3. write out[base + j] for the elements that exist, adding what the earlier tiles sum to;
//   4. carry the tile's total to the next tile, and make sure nobody overwrites shared memory
//      that another thread still reads.
// Hints: two buffers of 1024 floats in shared memory avoid reading a value already updated in
// the same step; every thread of the block must reach every __syncthreads(), so a thread past
// the end still takes part in the steps. The result is exact on the test's whole-number inputs.
// Test it with:  scripts/exercise ch05_cumsum_scan 4
#include "hillis_steele_kernel.cuh"

namespace scan {

// [snippet:stub]
__global__ void __launch_bounds__(kHillisSteeleThreads)
    scan_hillis_steele(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
  // TODO(exercise): scan in[0, n) into out, tile by tile, with the carry.
  // [/snippet:stub]
  // Until then: each element copied, not summed (wrong wherever n > 1).
  for (std::size_t i = threadIdx.x; i < n; i += blockDim.x) out[i] = in[i];
}

}  // namespace scan

// Exercise 4: version 3's kernel -- the reverse pass of one sequence by one block, on the GPU.
//
// Block blockIdx.x owns sequence s = blockIdx.x: steps k = 0 .. p.length − 1 at
// p.X[s·p.length + k]. It walks the sequence in chunks of kBlockThreads steps, thread t owning
// step chunk·kBlockThreads + t, and writes for every step
//     p.grad_b[k] = g_k,   p.grad_a[k] = g_k · h_{k−1}   (h_{−1} = 0, h stored in p.h),
// where g_k = dy_k + a_{k+1} g_{k+1}, nothing past the end.
// The pieces are in block_scan.cuh: reverse_step(a, dy, length, k) is step k as a map
// g ↦ A·g + B (the identity past the end); block_reverse_scan(x, warp_totals, total) gives
// each thread the map from g just past the chunk to its own g_k, and `total` the map of the
// whole chunk; write_gradients(p, first, k, g, h_before) writes both gradients.
// Hints: which chunk can be finished first, knowing nothing about the others? What single number
// must travel from one chunk to the next, and how does `total` update it? block_reverse_scan
// synchronizes the block: every thread must call it, even one whose step is past the end.
// Test it with:  scripts/exercise ch07_reverse_scan 4
#include "block_scan.cuh"
#include "reverse_block_scan.cuh"

namespace rscan {

// [snippet:stub]
__global__ void reverse_block_scan_kernel(DeviceProblem p) {
  // TODO(exercise): walk this block's sequence chunk by chunk and write both gradients.
  // [/snippet:stub]
  // Until then: g_k = dy_k, as if every a were 0 (wrong for every sequence longer than 1).
  const std::size_t first = blockIdx.x * p.length;
  for (std::size_t k = threadIdx.x; k < p.length; k += blockDim.x) write_gradients(p, first, k, p.dy[first + k], 0.0f);
}

}  // namespace rscan

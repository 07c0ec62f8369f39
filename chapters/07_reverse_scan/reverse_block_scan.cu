// Exercise 4's solution: version 3's kernel (declared in reverse_block_scan.cuh).
#include "block_scan.cuh"
#include "reverse_block_scan.cuh"

namespace rscan {

// [snippet:reverse_block_scan]
__global__ void reverse_block_scan_kernel(DeviceProblem p) {
  __shared__ Affine warp_totals[kWarps];
  const std::size_t first = blockIdx.x * p.length;
  float g_later = 0.0f;  // g at the first step of the chunk after this one; 0 past the end
  for (std::size_t chunk = chunk_count(p.length); chunk-- > 0;) {
    const std::size_t k = chunk * kBlockThreads + threadIdx.x;
    Affine total;
    const Affine x = block_reverse_scan(reverse_step(p.a + first, p.dy + first, p.length, k), warp_totals, total);
    if (k < p.length) write_gradients(p, first, k, x.a * g_later + x.b, k > 0 ? p.h[first + k - 1] : 0.0f);
    g_later = total.a * g_later + total.b;
  }
}
// [/snippet:reverse_block_scan]

}  // namespace rscan

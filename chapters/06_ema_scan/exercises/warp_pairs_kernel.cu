// Exercise 3: version 2's kernel -- a block scans its sequence of pairs chunk by chunk, on the GPU.
//
// Block blockIdx.x owns sequence s: a[s·length + k], b[s·length + k] for k = 0 .. length − 1,
// and writes h_k = a_k h_(k−1) + b_k there (h_(−1) = 0). With Threads = kWarpPairsThreads and
// Vectors = kWarpPairsVectors (ema_kernels.hpp) and T = scan::Tile<Threads, Vectors>, it walks
// the sequence in chunks of T::kSize pairs (512 threads × 8 pairs). The pieces, in pair_tile.cuh
// and chapter 05's tile_scan.cuh:
//   load_pairs<Threads, Vectors>(a, b, valid, v)   this thread's pairs of the chunk, in
//       PairF v[Vectors][4] (the missing ones past the end read as (1, 0))
//   scan::scan_tile<ComposeMaps, Threads, Vectors>(v, warp_totals), with
//       __shared__ PairF warp_totals[T::kWarps]: scans the chunk with the pair operator; each
//       v[k][e] becomes the composition of the pairs from the start of its WARP's stretch; it
//       returns warp_prefix (the composition of the chunk's earlier warps) and total (the whole
//       chunk's); one __syncthreads() inside
//   store_states<Threads, Vectors>(h, valid, v, h_before)   stores apply(v[k][e], h_before)
//   apply(map, h) = map.a·h + map.b,  combine(first, second)  (pair.hpp)
// Hints: what state does each warp's stretch start from, given the state h before the chunk?
// Which map comes first in time: the chunks before, or warp_prefix? One float is enough to
// carry from chunk to chunk (exercise 2). warp_totals is shared: no thread may write it for the
// next chunk before everyone has read it.
// Test it with:  scripts/exercise ch06_ema_scan 3
#include "pair_tile.cuh"
#include "warp_pairs_kernel.cuh"

namespace ema {

// [snippet:stub]
__global__ void __launch_bounds__(kWarpPairsThreads)
    ema_warp_pairs(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ h,
                   std::size_t length) {
  // TODO(exercise): walk this block's sequence chunk by chunk: load, scan, store, carry.
  // [/snippet:stub]
  // Until then: h_k = b_k, as if every a were 0 (wrong wherever an a is not).
  const std::size_t start = std::size_t(blockIdx.x) * length;
  for (std::size_t k = threadIdx.x; k < length; k += blockDim.x) h[start + k] = b[start + k];
}

}  // namespace ema

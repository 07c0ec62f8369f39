// Exercise 3's solution: version 2's kernel (declared in warp_pairs_kernel.cuh).
#include "pair_tile.cuh"
#include "warp_pairs_kernel.cuh"

namespace ema {

// [snippet:warp_pairs_kernel]
__global__ void __launch_bounds__(kWarpPairsThreads)
    ema_warp_pairs(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ h,
                   std::size_t length) {
  constexpr int Threads = kWarpPairsThreads, Vectors = kWarpPairsVectors;
  using T = scan::Tile<Threads, Vectors>;
  __shared__ PairF warp_totals[T::kWarps];
  const std::size_t start = std::size_t(blockIdx.x) * length;
  // The carry between chunks is one number, the state h at the end of the previous chunk:
  // the sequence starts from h = 0, so the a half of the running prefix is never needed.
  float carry = 0;
  for (std::size_t base = 0; base < length; base += T::kSize) {
    const int valid = static_cast<int>(min(std::size_t(T::kSize), length - base));
    PairF v[Vectors][4];
    load_pairs<Threads, Vectors>(a + start + base, b + start + base, valid, v);
    const scan::TileScan<PairF> s = scan::scan_tile<ComposeMaps, Threads, Vectors>(v, warp_totals);
    store_states<Threads, Vectors>(h + start + base, valid, v, apply(s.warp_prefix, carry));
    carry = apply(s.total, carry);
    __syncthreads();  // warp_totals is read by everyone before the next chunk writes it
  }
}
// [/snippet:warp_pairs_kernel]

}  // namespace ema

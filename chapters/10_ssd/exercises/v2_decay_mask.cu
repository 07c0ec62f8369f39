// Exercise 2: version 2's decay mask, on the GPU.
//
// Stage 4 of version 2 has C Bᵀ of every chunk from cuBLAS; this kernel turns it into M, the
// chunk's block of the semiseparable matrix, for every head:
//   M[i, j] = (C Bᵀ)[i, j] · exp(acs_i − acs_j) · dt'_j   for j ≤ i where i and j lie in one sequence
//   M[i, j] = 0                                           otherwise
// i and j are positions inside the chunk (0 .. Q − 1), so acs_i − acs_j is the sum of the decays
// a_(j+1) … a_i (exercise 1's row, now a subtraction: stage 1 summed acs inside each chunk).
// The layouts, g being the call's Geometry (v2_geometry.cuh), row-major, b the batch row, c the chunk:
//   cb   (batch, chunks, groups, Q, Q)   head h reads its group's, h / (heads / groups)
//   dt, acs  (batch, heads, padded)      position t of a row at [(b · heads + h) · padded + t],
//                                        t = c · Q + i; padded = chunks · Q
//   seq  (batch, padded)                 the sequence number of each position (all 0 unpacked)
//   M    (batch, chunks, heads, Q, Q)    one thread an element e, SSD_GRID_STRIDE(e, count)
// Hints: split e into (b, c, h, i, j) from the right, j fastest; every element of M is written,
// the zeros too (M is scratch memory: whatever an earlier call left there).
// The launch below the kernel is the library's: leave it.
// Test it with:  scripts/exercise ch10_ssd 2
#include "check.hpp"
#include "launch.cuh"
#include "v2_decay_mask.cuh"

namespace ssd::detail {
namespace {

// [snippet:exercise]
__global__ void decay_mask_kernel(const float* cb, const float* dt, const float* acs, const std::int32_t* seq, float* M,
                                  Geometry g) {
  // TODO(exercise): M[e] for every element e (SSD_GRID_STRIDE), from cb, dt, acs and seq, as above.
  // [/snippet:exercise]
  SSD_GRID_STRIDE(e, g.s.batch * g.chunks * g.s.heads * g.Q * g.Q) M[e] = 0.f;  // the stub: no decay, no C Bᵀ
  (void)cb;
  (void)dt;
  (void)acs;
  (void)seq;
}

}  // namespace

void decay_mask(const float* cb, const float* dt, const float* acs, const std::int32_t* seq, float* M,
                const Geometry& g, cudaStream_t stream) {
  const int threads = 256;
  decay_mask_kernel<<<blocks_for(g.s.batch * g.chunks * g.s.heads * g.Q * g.Q, threads), threads, 0, stream>>>(
      cb, dt, acs, seq, M, g);
  SSD_CHECK_LAUNCH();
}

}  // namespace ssd::detail

// Version 2's decay mask: the semiseparable matrix's block of one chunk and head, from the chunk's
// C Bᵀ. Exercise 2 writes the kernel (exercises/v2_decay_mask.cu); the `exercises` preset builds
// the stub in this file's place.
#include "check.hpp"
#include "launch.cuh"
#include "v2_decay_mask.cuh"

namespace ssd::detail {
namespace {

// [snippet:v2_decay_mask]
// M[i, j] = C_i·B_j exp(acs_i − acs_j) dt'_j for j ≤ i in one sequence, else 0. Inside a chunk
// acs_i − acs_j = a_(j+1) + … + a_i: the decay from position j to position i, one subtraction.
__global__ void decay_mask_kernel(const float* cb, const float* dt, const float* acs, const std::int32_t* seq, float* M,
                                  Geometry g) {
  const std::int64_t QQ = g.Q * g.Q;
  const int heads_per_group = g.s.heads / g.s.groups;
  SSD_GRID_STRIDE(e, g.s.batch * g.chunks * g.s.heads * QQ) {
    const std::int64_t j = e % g.Q, i = e / g.Q % g.Q, bch = e / QQ;
    const int h = int(bch % g.s.heads);
    const std::int64_t bc = bch / g.s.heads, c = bc % g.chunks, b = bc / g.chunks;
    const std::int64_t ti = c * g.Q + i, tj = c * g.Q + j, row = (b * g.s.heads + h) * g.padded;
    float m = 0.f;
    if (j <= i && seq[b * g.padded + ti] == seq[b * g.padded + tj])
      m = cb[(bc * g.s.groups + h / heads_per_group) * QQ + i * g.Q + j] * expf(acs[row + ti] - acs[row + tj]) *
          dt[row + tj];
    M[e] = m;
  }
}
// [/snippet:v2_decay_mask]

}  // namespace

void decay_mask(const float* cb, const float* dt, const float* acs, const std::int32_t* seq, float* M,
                const Geometry& g, cudaStream_t stream) {
  const int threads = 256;
  decay_mask_kernel<<<blocks_for(g.s.batch * g.chunks * g.s.heads * g.Q * g.Q, threads), threads, 0, stream>>>(
      cb, dt, acs, seq, M, g);
  SSD_CHECK_LAUNCH();
}

}  // namespace ssd::detail

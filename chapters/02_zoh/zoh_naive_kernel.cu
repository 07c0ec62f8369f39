// Exercise 3's solution: version 1, one thread per output element.
#include "discretize_math.cuh"
#include "zoh_naive_kernel.cuh"

#include <cstddef>

namespace zoh {

// [snippet:naive]
__global__ void discretize_naive(Rule rule, DeviceProblem p) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= p.count) return;
  // i = ((b·L + l)·D + d)·N + n: peel n, then d; what is left is the token (b, l).
  const std::size_t n = i % p.state;
  const std::size_t row = i / p.state;  // (b, l, d): also Δ's index
  const std::size_t d = row % p.channels;
  const std::size_t token = row / p.channels;
  const float delta = p.delta[row];
  const float a = p.A[d * p.state + n];
  const float b = p.B[token * p.state + n];
  p.Abar[i] = expf(delta * a);
  p.Bbar[i] = input_factor(rule, delta, a, b);
}
// [/snippet:naive]

}  // namespace zoh

// Exercise 3: version 1 of the discretization kernel -- one thread per output element.
//
// Thread i (i = blockIdx.x · blockDim.x + threadIdx.x) owns element i of the (batch, L, D, N)
// outputs, i = ((b·L + l)·D + d)·N + n, and writes
//     p.Abar[i] = expf(Δ · a)                       with Δ = p.delta[(b·L + l)·D + d]
//     p.Bbar[i] = input_factor(rule, Δ, a, b)      a = p.A[d·N + n],  b = p.B[(b·L + l)·N + n]
// (N = p.state, D = p.channels; input_factor is in discretize_math.cuh). Threads with
// i ≥ p.count must do nothing. Use std::size_t for indices: count can pass 2³¹.
// Test it on a GPU with:  scripts/exercise ch02_zoh 3
#include "discretize_math.cuh"
#include "zoh_naive_kernel.cuh"

#include <cstddef>

namespace zoh {

// [snippet:stub]
__global__ void discretize_naive(Rule rule, DeviceProblem p) {
  // TODO(exercise): compute this thread's element of Ā and B̄.
}
// [/snippet:stub]

}  // namespace zoh

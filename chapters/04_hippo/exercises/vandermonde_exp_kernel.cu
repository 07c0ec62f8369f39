// Exercise 3: kernel 1 -- one thread per (channel, ℓ), each power computed by exp.
//
// The thread with channel c = blockIdx.y and ℓ = blockIdx.x · blockDim.x + threadIdx.x writes
//     K[c · length + ℓ] = scale · Re Σ_{n < modes} W[c · modes + n] · exp(ℓ · z[c · modes + n])
// with W stored as float2 (x real, y imaginary) and z as float2 (x = Re z, y = Im z / π).
// Compute each power as complex_exp_halfturns(ℓ · z) (complex_float.cuh), never by
// multiplying Ā by itself ℓ times. Threads
// with ℓ ≥ length must write nothing.
// Test it on a GPU with:  scripts/exercise ch04_hippo 3
#include "complex_float.cuh"
#include "vandermonde_exp_kernel.cuh"

namespace s4d {

// [snippet:stub]
__global__ void vandermonde_exp_per_element(int modes, int length, float scale, const float2* W, const float2* z,
                                            float* K) {
  // TODO(exercise): compute and store this thread's K[c, ℓ].
}
// [/snippet:stub]

}  // namespace s4d

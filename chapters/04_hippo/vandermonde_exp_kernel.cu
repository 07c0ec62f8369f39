// Exercise 3's solution: kernel 1 (declared in vandermonde_exp_kernel.cuh).
#include "complex_float.cuh"
#include "vandermonde_exp_kernel.cuh"

#include <cstddef>

namespace s4d {

// [snippet:exp_per_element]
__global__ void vandermonde_exp_per_element(int modes, int length, float scale, const float2* W, const float2* z,
                                            float* K) {
  const int l = blockIdx.x * blockDim.x + threadIdx.x;
  if (l >= length) return;
  const std::size_t channel = blockIdx.y;
  const float2* W_c = W + channel * modes;  // every thread of the block reads the same mode: a broadcast
  const float2* z_c = z + channel * modes;
  float sum = 0;  // only the real part of Σ_n W_n e^{ℓ z_n} is wanted
  for (int n = 0; n < modes; ++n) {
    const float2 zn = z_c[n];
    const float2 power =
        complex_exp_halfturns(make_float2(l * zn.x, l * zn.y));  // Ā^ℓ = e^{ℓ Δ A}, no repeated product
    const float2 w = W_c[n];
    sum = fmaf(w.x, power.x, fmaf(-w.y, power.y, sum));
  }
  K[channel * length + l] = scale * sum;
}
// [/snippet:exp_per_element]

}  // namespace s4d

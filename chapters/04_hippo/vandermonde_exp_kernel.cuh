// Kernel 1, declared here and defined in vandermonde_exp_kernel.cu -- exercise 3, whose stub
// is exercises/vandermonde_exp_kernel.cu. vandermonde_kernels.cu launches it.
#pragma once

#include <cuda_runtime.h>

namespace s4d {

// One thread per (channel c = blockIdx.y, ℓ = blockIdx.x · blockDim.x + threadIdx.x):
//   K[c, ℓ] = scale · Re Σ_n W[c, n] · exp(ℓ · z[c, n])   (z's imaginary part stored divided by π)
__global__ void vandermonde_exp_per_element(int modes, int length, float scale, const float2* W, const float2* z,
                                            float* K);

}  // namespace s4d

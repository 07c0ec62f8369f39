// Exercise 3's solution: version 5's pointwise product (declared in spectral_multiply.cuh).
#include "spectral_multiply.cuh"

namespace conv {

// [snippet:spectral_multiply]
__global__ void spectral_multiply(long long rows, int channels, int bins, float scale, const cufftComplex* kernel,
                                  cufftComplex* signal) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= rows * bins) return;
  const long long row = i / bins;
  const int f = static_cast<int>(i % bins);
  const cufftComplex a = signal[i];
  const cufftComplex b = kernel[(row % channels) * bins + f];
  signal[i] = make_cuComplex(scale * (a.x * b.x - a.y * b.y), scale * (a.x * b.y + a.y * b.x));
}
// [/snippet:spectral_multiply]

}  // namespace conv

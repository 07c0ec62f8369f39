// Exercise 4's solution: version 2's kernel (declared in hillis_steele_kernel.cuh).
#include "hillis_steele_kernel.cuh"

namespace scan {

// [snippet:hillis_steele_kernel]
__global__ void __launch_bounds__(kHillisSteeleThreads)
    scan_hillis_steele(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
  constexpr int Threads = kHillisSteeleThreads;
  // Two buffers: in a step every thread reads the old values of two elements and writes one
  // new value, so the new values must go elsewhere until everyone has read.
  __shared__ float buffer[2][Threads];
  const int j = threadIdx.x;
  float carry = 0;  // the sum of every earlier tile
  for (std::size_t base = 0; base < n; base += Threads) {
    const std::size_t i = base + j;
    buffer[0][j] = i < n ? in[i] : 0.f;  // past the end: 0, the identity of +
    int current = 0;
    __syncthreads();
    for (int offset = 1; offset < Threads; offset *= 2) {
      const float mine = buffer[current][j];
      buffer[1 - current][j] = j >= offset ? mine + buffer[current][j - offset] : mine;
      current = 1 - current;
      __syncthreads();
    }
    if (i < n) out[i] = carry + buffer[current][j];
    carry += buffer[current][Threads - 1];  // every thread keeps the same running total
    __syncthreads();                        // everyone has read the tile before the next one overwrites it
  }
}
// [/snippet:hillis_steele_kernel]

}  // namespace scan

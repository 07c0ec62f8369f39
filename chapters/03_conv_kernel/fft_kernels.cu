// Version 5's own kernels: zero-padding, the pointwise product (spectral_multiply.cu) and
// cropping. The transforms between them are cuFFT's (fft_conv.cpp).
#include "cuda_check.hpp"
#include "fft_kernels.hpp"
#include "spectral_multiply.cuh"

#include <climits>
#include <stdexcept>

namespace conv {
namespace {

__global__ void pad_rows(long long rows, int n, int N, const float* values, float* padded) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= rows * N) return;
  const long long row = i / N;
  const int k = static_cast<int>(i % N);
  padded[i] = k < n ? values[row * n + k] : 0.f;
}

// The values past n held products that wrapped around (anti-causal lags): dropped.
__global__ void crop_rows(long long rows, int n, int N, const float* padded, float* values) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= rows * n) return;
  values[i] = padded[(i / n) * N + i % n];
}

constexpr int kThreads = 256;

unsigned blocks_for(long long count) {
  const long long blocks = (count + kThreads - 1) / kThreads;
  if (blocks < 1 || blocks > INT_MAX)
    throw std::invalid_argument("fft_kernels: problem size out of range for a 1-D grid");
  return static_cast<unsigned>(blocks);
}

}  // namespace

void launch_pad_rows(long long rows, int n, int N, const float* values, float* padded, cudaStream_t stream) {
  pad_rows<<<blocks_for(rows * N), kThreads, 0, stream>>>(rows, n, N, values, padded);
  CUDA_CHECK_LAUNCH();
}

void launch_spectral_multiply(long long rows, int channels, int bins, float scale, const cufftComplex* kernel,
                              cufftComplex* signal, cudaStream_t stream) {
  spectral_multiply<<<blocks_for(rows * bins), kThreads, 0, stream>>>(rows, channels, bins, scale, kernel, signal);
  CUDA_CHECK_LAUNCH();
}

void launch_crop_rows(long long rows, int n, int N, const float* padded, float* values, cudaStream_t stream) {
  crop_rows<<<blocks_for(rows * n), kThreads, 0, stream>>>(rows, n, N, padded, values);
  CUDA_CHECK_LAUNCH();
}

}  // namespace conv

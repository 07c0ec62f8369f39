// Chapter 04: S4D convolution kernels on the GPU, many channels at once.
//
//   K̄[c, ℓ] = scale · Re Σ_n W[c, n] · Ā[c, n]^ℓ,   Ā = e^z,  z = Δ_c A_n,  W = C_n B̄_n
//
// a Vandermonde matrix (rows ℓ, columns n, entries Ā_n^ℓ) times the vector W, per channel.
// Every output needs one complex power per mode, so the work is channels × length × modes
// powers against channels × length floats written: the question is how cheaply each power
// is made, not how fast memory is.
//
// Versions (ch04_hippo --kernel N runs version N alone):
//   1  vandermonde_exp_per_element  one thread per (channel, l); every power is exp(l * dt * A)
//   2  vandermonde_powers_in_chunk  one thread per (channel, 8 consecutive l); one exp, then 7 products by A_bar
//   3  vandermonde_strided_powers  one thread per (channel, 8 l a block apart); products by A_bar^128; coalesced stores
#include "complex_float.cuh"
#include "cuda_check.hpp"
#include "vandermonde_exp_kernel.cuh"
#include "vandermonde_kernels.hpp"

#include <cstddef>
#include <stdexcept>

namespace s4d {
namespace {

constexpr int kExpThreads = 256;
constexpr int kChunkThreads = 128;
constexpr int T = kPowersPerThread;

// [snippet:powers_in_chunk]
__global__ void __launch_bounds__(kChunkThreads)
    vandermonde_powers_in_chunk(int modes, int length, float scale, const float2* W, const float2* z, float* K) {
  const int first = (blockIdx.x * blockDim.x + threadIdx.x) * T;  // this thread's ℓ = first .. first + T − 1
  if (first >= length) return;
  const std::size_t channel = blockIdx.y;
  float sum[T] = {};
  for (int n = 0; n < modes; ++n) {
    const float2 zn = z[channel * modes + n];
    const float2 step = complex_exp_halfturns(zn);  // Ā
    float2 term = complex_mul(W[channel * modes + n], complex_exp_halfturns(make_float2(first * zn.x, first * zn.y)));
#pragma unroll
    for (int j = 0; j < T; ++j) {  // W Ā^{first + j}: the rounding of T − 1 products adds up
      sum[j] += term.x;
      term = complex_mul(term, step);
    }
  }
  float* K_c = K + channel * length;
#pragma unroll
  for (int j = 0; j < T; ++j)
    if (first + j < length) K_c[first + j] = scale * sum[j];  // lanes 8 floats apart: 32 sectors per store
}
// [/snippet:powers_in_chunk]

// [snippet:strided_powers]
__global__ void __launch_bounds__(kChunkThreads)
    vandermonde_strided_powers(int modes, int length, float scale, const float2* W, const float2* z, float* K) {
  constexpr int S = kChunkThreads;  // this thread's ℓ = first + j·S: neighbouring lanes, neighbouring ℓ
  const int first = blockIdx.x * S * T + threadIdx.x;
  if (first >= length) return;
  const std::size_t channel = blockIdx.y;
  float sum[T] = {};
  for (int n = 0; n < modes; ++n) {
    const float2 zn = z[channel * modes + n];
    const float2 step = complex_exp_halfturns(make_float2(S * zn.x, S * zn.y));  // Ā^S
    float2 term = complex_mul(W[channel * modes + n], complex_exp_halfturns(make_float2(first * zn.x, first * zn.y)));
#pragma unroll
    for (int j = 0; j < T; ++j) {
      sum[j] += term.x;
      term = complex_mul(term, step);
    }
  }
  float* K_c = K + channel * length;
#pragma unroll
  for (int j = 0; j < T; ++j)
    if (first + j * S < length) K_c[first + j * S] = scale * sum[j];  // a warp stores 32 neighbours
}
// [/snippet:strided_powers]

unsigned blocks_for(int length, int per_block) { return static_cast<unsigned>((length + per_block - 1) / per_block); }

}  // namespace

void run_gpu(Kernel kernel, const DeviceBank& b, cudaStream_t stream) {
  // The channel is blockIdx.y (at most 65535); ℓ must be exact in fp32 (at most 2^24).
  if (b.channels < 1 || b.channels > 65535 || b.modes < 1 || b.length < 1 || b.length > (1 << 24))
    throw std::invalid_argument("s4d::run_gpu: channels must be in 1 .. 65535, modes at least 1, length in 1 .. 2^24");
  switch (kernel) {
    case Kernel::exp_per_element: {
      const dim3 grid(blocks_for(b.length, kExpThreads), b.channels);
      vandermonde_exp_per_element<<<grid, kExpThreads, 0, stream>>>(b.modes, b.length, b.scale, b.W, b.z, b.K);
      break;
    }
    case Kernel::powers_in_chunk: {
      const dim3 grid(blocks_for(b.length, kChunkThreads * T), b.channels);
      vandermonde_powers_in_chunk<<<grid, kChunkThreads, 0, stream>>>(b.modes, b.length, b.scale, b.W, b.z, b.K);
      break;
    }
    case Kernel::strided_powers: {
      const dim3 grid(blocks_for(b.length, kChunkThreads * T), b.channels);
      vandermonde_strided_powers<<<grid, kChunkThreads, 0, stream>>>(b.modes, b.length, b.scale, b.W, b.z, b.K);
      break;
    }
    default: throw std::invalid_argument("s4d::run_gpu: no such kernel");
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace s4d

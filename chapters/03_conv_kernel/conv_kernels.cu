// Chapter 03: the SSM convolution y = K̄ ∗ x on the GPU, as a batched causal Toeplitz product.
//
//   o[b, c, i] = Σ_{j ≤ i} t[c, i − j] · x[b, c, j]      t: channels × n,  x, o: batch × channels × n
//
// Versions 1–4 compute the sum directly, n(n + 1)/2 multiply-adds per row; version 5 goes
// through the frequency domain in O(n log n). All of them run every (batch, channel) row at
// once; they differ in how a row's work is spread and where t and x are read from.
//
// Versions (ch03_conv_kernel --kernel N runs version N alone):
//   1  toeplitz_thread_per_row  one thread per (batch, channel) row; O(n^2) loop per thread
//   2  toeplitz_thread_per_output  one thread per output position; t read backwards, coalesced
//   3  toeplitz_shared_tiles  tiles of x and t in shared memory; only tiles on or below the diagonal
//   4  toeplitz_register_window  4 outputs per thread; a sliding window of t in registers
//   5  fft_convolution  cuFFT R2C, pointwise product, C2R, zero-padded to >= 2n; O(n log n)
// (version 5 is in fft_conv.cpp, its kernels in fft_kernels.cu)
#include "conv_kernels.hpp"
#include "cuda_check.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>

namespace conv {
namespace {

// [snippet:thread_per_row]
__global__ void toeplitz_thread_per_row(int rows, int channels, int n, const float* t, const float* x, float* o) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;  // row = b · channels + c
  if (row >= rows) return;
  const float* tc = t + std::size_t(row % channels) * n;
  const float* xr = x + std::size_t(row) * n;
  float* orow = o + std::size_t(row) * n;
  for (int i = 0; i < n; ++i) {
    float sum = 0.f;
    for (int j = 0; j <= i; ++j) sum = fmaf(tc[i - j], xr[j], sum);
    orow[i] = sum;
  }
}
// [/snippet:thread_per_row]

// [snippet:thread_per_output]
__global__ void toeplitz_thread_per_output(int channels, int n, const float* t, const float* x, float* o) {
  const int row = blockIdx.x;                           // one row per block column of the grid
  const int i = blockIdx.y * blockDim.x + threadIdx.x;  // this thread's output position
  if (i >= n) return;
  const float* tc = t + std::size_t(row % channels) * n;
  const float* xr = x + std::size_t(row) * n;
  float sum = 0.f;
  // At each j the warp reads x_j (one address: a broadcast) and t_{i−j} for 32 neighbouring
  // i (32 neighbouring addresses: one coalesced load).
  for (int j = 0; j <= i; ++j) sum = fmaf(tc[i - j], xr[j], sum);
  o[std::size_t(row) * n + i] = sum;
}
// [/snippet:thread_per_output]

constexpr int kTile = 128;  // version 3: outputs per block = inputs per tile = threads per block

// [snippet:shared_tiles]
__global__ void __launch_bounds__(kTile)
    toeplitz_shared_tiles(int channels, int n, const float* t, const float* x, float* o) {
  __shared__ float xs[kTile];          // x_{j0} .. x_{j0+kTile−1}
  __shared__ float ts[2 * kTile - 1];  // every lag a pair (i, j) of the two tiles can have
  const int row = blockIdx.x;
  const int i0 = blockIdx.y * kTile;
  const int i = i0 + threadIdx.x;
  const float* tc = t + std::size_t(row % channels) * n;
  const float* xr = x + std::size_t(row) * n;
  float sum = 0.f;
  // Causal: input tiles past the output tile (j0 > i0) would only multiply zeros.
  for (int j0 = 0; j0 <= i0; j0 += kTile) {
    const int first_lag = i0 - j0 - (kTile - 1);  // ts[m] = t_{first_lag + m}
    for (int m = threadIdx.x; m < 2 * kTile - 1; m += kTile) {
      const int lag = first_lag + m;
      ts[m] = lag >= 0 && lag < n ? tc[lag] : 0.f;  // t_{k<0} = 0 is what makes it causal
    }
    xs[threadIdx.x] = j0 + threadIdx.x < n ? xr[j0 + threadIdx.x] : 0.f;
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < kTile; ++k) sum = fmaf(ts[kTile - 1 + threadIdx.x - k], xs[k], sum);  // t_{i−(j0+k)}
    __syncthreads();  // before the next tile overwrites xs and ts
  }
  if (i < n) o[std::size_t(row) * n + i] = sum;
}
// [/snippet:shared_tiles]

// Version 4: kThreads threads, each owning kPerThread consecutive outputs; input tiles as
// long as the output tile.
constexpr int kThreads = 128;
constexpr int kPerThread = 4;
constexpr int kOutTile = kThreads * kPerThread;  // 512 outputs per block
constexpr int kLagColumns = 2 * kOutTile / kPerThread;

// [snippet:register_window]
__global__ void __launch_bounds__(kThreads)
    toeplitz_register_window(int channels, int n, const float* t, const float* x, float* o) {
  __shared__ float xs[kOutTile];
  // The 2·kOutTile − 1 lags of a tile pair, lag m stored at ts[m % kPerThread][m / kPerThread].
  // Thread τ reads lag m = kPerThread·τ + const at each step, so this layout puts the 32
  // lanes of a warp on 32 consecutive words (32 different banks) instead of every 4th word.
  __shared__ float ts[kPerThread][kLagColumns];
  const int row = blockIdx.x;
  const int i0 = blockIdx.y * kOutTile;
  const int first = kPerThread * threadIdx.x;  // this thread's outputs: i0 + first + r
  const float* tc = t + std::size_t(row % channels) * n;
  const float* xr = x + std::size_t(row) * n;
  float acc[kPerThread] = {};
  for (int j0 = 0; j0 <= i0; j0 += kOutTile) {
    const int first_lag = i0 - j0 - (kOutTile - 1);
    for (int m = threadIdx.x; m < 2 * kOutTile; m += kThreads) {
      const int lag = first_lag + m;
      ts[m % kPerThread][m / kPerThread] = lag >= 0 && lag < n ? tc[lag] : 0.f;
    }
    for (int k = threadIdx.x; k < kOutTile; k += kThreads) xs[k] = j0 + k < n ? xr[j0 + k] : 0.f;
    __syncthreads();
    // Output r at input k needs lag m = kOutTile − 1 + first + r − k. As k grows by one every
    // m falls by one: the window slides, and only one new t enters it per step.
    float window[kPerThread];
#pragma unroll
    for (int r = 0; r < kPerThread; ++r) {
      const int m = kOutTile - 1 + first + r;
      window[r] = ts[m % kPerThread][m / kPerThread];
    }
#pragma unroll 4
    for (int k = 0; k < kOutTile; ++k) {
      const float xk = xs[k];
#pragma unroll
      for (int r = 0; r < kPerThread; ++r) acc[r] = fmaf(window[r], xk, acc[r]);
#pragma unroll
      for (int r = kPerThread - 1; r > 0; --r) window[r] = window[r - 1];
      const int m = kOutTile - 2 + first - k;  // the lag output 0 needs at step k + 1
      if (k + 1 < kOutTile) window[0] = ts[m % kPerThread][m / kPerThread];
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < kPerThread; ++r) {
    const int i = i0 + first + r;
    if (i < n) o[std::size_t(row) * n + i] = acc[r];
  }
}
// [/snippet:register_window]

unsigned blocks_for(long long count, int per_block) {
  return static_cast<unsigned>((count + per_block - 1) / per_block);
}

}  // namespace

long long max_direct_length() { return 65535LL * kTile; }

void run_direct(Kernel kernel, const DeviceProblem& p, cudaStream_t stream) {
  const long long rows = static_cast<long long>(p.batch) * p.channels;
  if (p.batch < 1 || p.channels < 1 || p.n < 1 || rows > 0x7fffffffLL)
    throw std::invalid_argument("run_direct: batch, channels and n must be at least 1, batch × channels below 2^31");
  if (p.n > max_direct_length())
    throw std::invalid_argument("run_direct: n = " + std::to_string(p.n) + " exceeds the tiled grid's limit of " +
                                std::to_string(max_direct_length()));
  const unsigned row_blocks = static_cast<unsigned>(rows);
  switch (kernel) {
    case Kernel::thread_per_row: {
      constexpr int threads = 128;
      toeplitz_thread_per_row<<<blocks_for(rows, threads), threads, 0, stream>>>(static_cast<int>(rows), p.channels,
                                                                                 p.n, p.t, p.x, p.o);
      break;
    }
    case Kernel::thread_per_output: {
      constexpr int threads = 128;
      const dim3 grid(row_blocks, blocks_for(p.n, threads));
      toeplitz_thread_per_output<<<grid, threads, 0, stream>>>(p.channels, p.n, p.t, p.x, p.o);
      break;
    }
    case Kernel::shared_tiles: {
      const dim3 grid(row_blocks, blocks_for(p.n, kTile));
      toeplitz_shared_tiles<<<grid, kTile, 0, stream>>>(p.channels, p.n, p.t, p.x, p.o);
      break;
    }
    case Kernel::register_window: {
      const dim3 grid(row_blocks, blocks_for(p.n, kOutTile));
      toeplitz_register_window<<<grid, kThreads, 0, stream>>>(p.channels, p.n, p.t, p.x, p.o);
      break;
    }
    default:
      throw std::invalid_argument("run_direct: kernel " + std::to_string(int(kernel)) + " is not a direct version");
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace conv

// Chapter 03's GPU versions of the batched causal Toeplitz product (the SSM convolution),
// each adding one idea (the list is in conv_kernels.cu's header comment, checked against
// kKernels by a test).
#pragma once

#include <cuda_runtime.h>

namespace conv {

enum class Kernel : int {
  thread_per_row = 1,
  thread_per_output = 2,
  shared_tiles = 3,
  register_window = 4,
  fft_convolution = 5,
};

struct KernelInfo {
  Kernel id;
  const char* name;
  const char* idea;
};

inline constexpr KernelInfo kKernels[] = {
    {Kernel::thread_per_row, "toeplitz_thread_per_row", "one thread per (batch, channel) row; O(n^2) loop per thread"},
    {Kernel::thread_per_output, "toeplitz_thread_per_output",
     "one thread per output position; t read backwards, coalesced"},
    {Kernel::shared_tiles, "toeplitz_shared_tiles",
     "tiles of x and t in shared memory; only tiles on or below the diagonal"},
    {Kernel::register_window, "toeplitz_register_window", "4 outputs per thread; a sliding window of t in registers"},
    {Kernel::fft_convolution, "fft_convolution", "cuFFT R2C, pointwise product, C2R, zero-padded to >= 2n; O(n log n)"},
};
inline constexpr int kKernelCount = static_cast<int>(sizeof kKernels / sizeof kKernels[0]);

// Device pointers and sizes of one problem: t is channels × n (one kernel per channel, shared
// by the whole batch), x and o are batch × channels × n, row-major:
//   o[b, c, i] = Σ_{j ≤ i} t[c, i − j] · x[b, c, j]
struct DeviceProblem {
  int batch = 0;
  int channels = 0;
  int n = 0;
  const float* t = nullptr;
  const float* x = nullptr;
  float* o = nullptr;
};

// The largest n the tiled launches can cover (their tiles along n are the grid's y dimension).
long long max_direct_length();

// Runs direct version 1–4 (the FFT version lives in fft_conv.hpp). Throws on a bad shape.
void run_direct(Kernel kernel, const DeviceProblem& p, cudaStream_t stream = nullptr);

}  // namespace conv

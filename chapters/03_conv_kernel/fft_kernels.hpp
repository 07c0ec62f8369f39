// The small kernels around version 5's transforms (fft_kernels.cu), launched on raw device
// pointers. Each checks its launch.
#pragma once

#include <cuda_runtime.h>
#include <cufft.h>

namespace conv {

// Row r of `padded` (rows × N) = row r of `values` (rows × n), then N − n zeros.
void launch_pad_rows(long long rows, int n, int N, const float* values, float* padded, cudaStream_t stream);

// signal[row, f] *= kernel[row % channels, f] · scale  (rows × bins complex values).
void launch_spectral_multiply(long long rows, int channels, int bins, float scale, const cufftComplex* kernel,
                              cufftComplex* signal, cudaStream_t stream);

// values (rows × n) = the first n values of each row of `padded` (rows × N).
void launch_crop_rows(long long rows, int n, int N, const float* padded, float* values, cudaStream_t stream);

}  // namespace conv

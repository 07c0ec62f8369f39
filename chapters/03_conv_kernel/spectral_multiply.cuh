// Version 5's pointwise product in the frequency domain, declared here and defined in
// spectral_multiply.cu -- exercise 3, whose stub is exercises/spectral_multiply.cu.
// fft_conv.cu launches it.
#pragma once

#include <cufft.h>

namespace conv {

// signal is rows × bins complex values (row = b · channels + c), kernel is channels × bins.
// One thread per (row, bin):
//   signal[row, f] = signal[row, f] · kernel[row % channels, f] · scale
// (a complex product; scale = 1/N undoes cuFFT's unnormalized inverse transform).
__global__ void spectral_multiply(long long rows, int channels, int bins, float scale, const cufftComplex* kernel,
                                  cufftComplex* signal);

}  // namespace conv

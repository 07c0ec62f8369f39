// Exercise 3: version 5's pointwise product in the frequency domain.
//
// signal is rows × bins complex values (row = b · channels + c), kernel is channels × bins.
// Thread i handles row = i / bins and bin f = i % bins, and writes
//     signal[row, f] = signal[row, f] · kernel[row % channels, f] · scale
// where the product is a complex product ((a.x + i a.y)(b.x + i b.y)) and scale = 1/N undoes
// the unnormalized inverse FFT. Threads past rows × bins must do nothing.
// Test it on a GPU with:  scripts/exercise ch03_conv_kernel 3
#include "spectral_multiply.cuh"

namespace conv {

// [snippet:stub]
__global__ void spectral_multiply(long long rows, int channels, int bins, float scale, const cufftComplex* kernel,
                                  cufftComplex* signal) {
  // TODO(exercise): multiply this thread's bin by its channel's kernel spectrum.
}
// [/snippet:stub]

}  // namespace conv

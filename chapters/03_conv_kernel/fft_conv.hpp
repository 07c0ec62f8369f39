// Version 5: the causal convolution through the frequency domain with cuFFT.
//
// With both sequences zero-padded to a length N ≥ 2n − 1, the circular convolution of length
// N never wraps a product into the first n outputs, so
//   o = first n values of IFFT( FFT(pad(x)) · FFT(pad(t)) ),
// O(N log N) per row instead of O(n²). The plans are made once, in the constructor (outside
// any timed region), for a fixed (batch, channels, n).
#pragma once

#include "device_buffer.hpp"

#include <cufft.h>

#include <string>

namespace conv {

// "CUFFT_INVALID_SIZE" and so on.
const char* cufft_result_name(cufftResult result);
[[noreturn]] void throw_cufft_error(cufftResult result, const char* call, const char* file, int line);

}  // namespace conv

// Every cuFFT call returns a cufftResult, never a cudaError_t: check it like CUDA_CHECK.
#define CUFFT_CHECK(call)                                                                                    \
  do {                                                                                                       \
    const cufftResult cufft_result_ = (call);                                                                \
    if (cufft_result_ != CUFFT_SUCCESS) ::conv::throw_cufft_error(cufft_result_, #call, __FILE__, __LINE__); \
  } while (0)

namespace conv {

// The FFT length for a causal convolution of n values: the smallest N ≥ 2n whose prime
// factors are all 2, 3, 5 or 7 (the sizes cuFFT transforms fastest).
int fft_length(int n);

// A cuFFT plan that destroys itself.
class FftPlan {
 public:
  FftPlan() = default;
  // A batch of `count` 1-D transforms of length `length`, rows stored back to back.
  FftPlan(int length, int count, cufftType type);
  FftPlan(const FftPlan&) = delete;
  FftPlan& operator=(const FftPlan&) = delete;
  FftPlan(FftPlan&& other) noexcept;
  FftPlan& operator=(FftPlan&& other) noexcept;
  ~FftPlan();
  cufftHandle get() const { return handle_; }

 private:
  cufftHandle handle_ = 0;
  bool owned_ = false;
};

class FftConvolution {
 public:
  FftConvolution(int batch, int channels, int n);

  // o (batch × channels × n) = the causal convolution of every row of x with its channel's t.
  void run(const float* t, const float* x, float* o, cudaStream_t stream = nullptr);

  int length() const { return length_; }  // N
  // Device memory the buffers need (without cuFFT's own work areas).
  static std::size_t device_bytes(int batch, int channels, int n);

 private:
  int batch_, channels_, n_, length_, bins_;  // bins = N/2 + 1 complex values per row
  common::DeviceBuffer<float> x_padded_, t_padded_;
  common::DeviceBuffer<cufftComplex> x_spectrum_, t_spectrum_;
  FftPlan forward_rows_, forward_kernels_, inverse_rows_;
};

}  // namespace conv

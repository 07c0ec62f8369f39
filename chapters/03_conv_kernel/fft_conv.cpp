// Version 5 of conv_kernels.cu's list: the causal convolution with cuFFT (see fft_conv.hpp).
#include "fft_conv.hpp"

#include "fft_kernels.hpp"
#include "gpu.hpp"

#include <climits>
#include <stdexcept>
#include <string>
#include <utility>

namespace conv {

const char* cufft_result_name(cufftResult result) {
  switch (result) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_INVALID_DEVICE: return "CUFFT_INVALID_DEVICE";
    case CUFFT_NO_WORKSPACE: return "CUFFT_NO_WORKSPACE";
    case CUFFT_NOT_IMPLEMENTED: return "CUFFT_NOT_IMPLEMENTED";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return "an unknown cufftResult";
  }
}

void throw_cufft_error(cufftResult result, const char* call, const char* file, int line) {
  throw std::runtime_error(std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
                           cufft_result_name(result) + " (" + std::to_string(int(result)) + ")");
}

// [snippet:fft_length]
int fft_length(int n) {
  if (n < 1 || n > (1 << 29)) throw std::invalid_argument("fft_length: n must be in [1, 2^29]");
  for (long long N = 2LL * n;; ++N) {
    long long rest = N;
    for (int p : {2, 3, 5, 7})
      while (rest % p == 0) rest /= p;
    if (rest == 1) return static_cast<int>(N);
  }
}
// [/snippet:fft_length]

FftPlan::FftPlan(int length, int count, cufftType type) {
  int dims[] = {length};
  // nullptr embeds: rows back to back, `length` reals or length/2 + 1 complex values each.
  CUFFT_CHECK(cufftPlanMany(&handle_, 1, dims, nullptr, 1, 0, nullptr, 1, 0, type, count));
  owned_ = true;
}

FftPlan::FftPlan(FftPlan&& other) noexcept
    : handle_(std::exchange(other.handle_, 0)), owned_(std::exchange(other.owned_, false)) {}

FftPlan& FftPlan::operator=(FftPlan&& other) noexcept {
  std::swap(handle_, other.handle_);
  std::swap(owned_, other.owned_);
  return *this;
}

FftPlan::~FftPlan() {
  if (owned_) cufftDestroy(handle_);  // no throw from a destructor
}

std::size_t FftConvolution::device_bytes(int batch, int channels, int n) {
  const std::size_t N = fft_length(n), bins = N / 2 + 1, rows = std::size_t(batch) * channels;
  return sizeof(float) * N * (rows + channels) + sizeof(cufftComplex) * bins * (rows + channels);
}

FftConvolution::FftConvolution(int batch, int channels, int n)
    : batch_(batch), channels_(channels), n_(n), length_(fft_length(n)), bins_(length_ / 2 + 1) {
  const long long rows = static_cast<long long>(batch) * channels;
  if (batch < 1 || channels < 1 || rows * length_ > INT_MAX)
    throw std::invalid_argument(
        "FftConvolution: batch × channels × N must stay below 2^31 (N = " + std::to_string(length_) + ")");
  common::require_device_memory(device_bytes(batch, channels, n), "the FFT buffers of --batch × --channels × n");
  x_padded_ = common::DeviceBuffer<float>(std::size_t(rows) * length_);
  t_padded_ = common::DeviceBuffer<float>(std::size_t(channels) * length_);
  x_spectrum_ = common::DeviceBuffer<cufftComplex>(std::size_t(rows) * bins_);
  t_spectrum_ = common::DeviceBuffer<cufftComplex>(std::size_t(channels) * bins_);
  forward_rows_ = FftPlan(length_, static_cast<int>(rows), CUFFT_R2C);
  forward_kernels_ = FftPlan(length_, channels, CUFFT_R2C);
  inverse_rows_ = FftPlan(length_, static_cast<int>(rows), CUFFT_C2R);
}

// [snippet:fft_run]
void FftConvolution::run(const float* t, const float* x, float* o, cudaStream_t stream) {
  const long long rows = static_cast<long long>(batch_) * channels_;
  for (const FftPlan* plan : {&forward_rows_, &forward_kernels_, &inverse_rows_})
    CUFFT_CHECK(cufftSetStream(plan->get(), stream));
  launch_pad_rows(rows, n_, length_, x, x_padded_.data(), stream);
  launch_pad_rows(channels_, n_, length_, t, t_padded_.data(), stream);
  CUFFT_CHECK(cufftExecR2C(forward_rows_.get(), x_padded_.data(), x_spectrum_.data()));
  CUFFT_CHECK(cufftExecR2C(forward_kernels_.get(), t_padded_.data(), t_spectrum_.data()));
  launch_spectral_multiply(rows, channels_, bins_, 1.0f / length_, t_spectrum_.data(), x_spectrum_.data(), stream);
  // The inverse lands in x_padded_, which is free again (a C2R may overwrite its input too).
  CUFFT_CHECK(cufftExecC2R(inverse_rows_.get(), x_spectrum_.data(), x_padded_.data()));
  launch_crop_rows(rows, n_, length_, x_padded_.data(), o, stream);
}
// [/snippet:fft_run]

}  // namespace conv

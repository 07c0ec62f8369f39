#include "tensor_core_peak.hpp"

#include "device_buffer.hpp"
#include "gpu.hpp"
#include "grid_fill.hpp"

#include <cublas_v2.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace ch10 {
namespace {

void check_cublas(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string("cuBLAS ") + what + " failed: " + cublasGetStatusString(status));
}

struct DestroyHandle {
  void operator()(cublasHandle_t handle) const { cublasDestroy(handle); }
};
using Handle = std::unique_ptr<std::remove_pointer_t<cublasHandle_t>, DestroyHandle>;

}  // namespace

double measure_bf16_gemm_tflops(common::GpuTimer& timer, int n) {
  const std::size_t count = std::size_t(n) * std::size_t(n);
  common::require_device_memory(3 * count * 2, "the bf16 GEMM's three matrices");
  common::DeviceBuffer<std::uint16_t> a(count), b(count), c(count);
  // Drawn values, not zeros: a tensor core multiplying zeros draws less power and may clock higher.
  ch08::grid::fill_normal_input(a.data(), std::int64_t(count), selective_scan::DataType::bfloat16, 91, 1.f);
  ch08::grid::fill_normal_input(b.data(), std::int64_t(count), selective_scan::DataType::bfloat16, 92, 1.f);
  cublasHandle_t raw = nullptr;
  check_cublas(cublasCreate(&raw), "cublasCreate");
  const Handle handle(raw);
  const float alpha = 1.f, beta = 0.f;
  const double ms = timer
                        .time([&] {
                          check_cublas(cublasGemmEx(handle.get(), CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a.data(),
                                                    CUDA_R_16BF, n, b.data(), CUDA_R_16BF, n, &beta, c.data(),
                                                    CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                                       "cublasGemmEx");
                        })
                        .median_ms;
  return 2.0 * double(n) * double(n) * double(n) / (ms * 1e-3) / 1e12;
}

}  // namespace ch10

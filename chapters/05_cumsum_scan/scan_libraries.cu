// Versions 8-10 of chapter 05: the libraries, one call each.
#include "cuda_check.hpp"
#include "scan_libraries.hpp"

#include <thrust/execution_policy.h>
#include <thrust/scan.h>
#include <cub/device/device_scan.cuh>

#include <climits>

namespace scan {
namespace {

// CUB picks its offset type from the type of num_items: pass an int where N fits, as most
// callers do, so the figures compare like with like.
template <class Call>
cudaError_t with_count(std::size_t n, Call&& call) {
  if (n <= static_cast<std::size_t>(INT_MAX)) return call(static_cast<int>(n));
  return call(n);
}

}  // namespace

std::size_t cub_scan_temp_bytes(std::size_t n) {
  std::size_t bytes = 0;
  CUDA_CHECK(with_count(n, [&](auto count) {
    return cub::DeviceScan::InclusiveSum(nullptr, bytes, static_cast<const float*>(nullptr),
                                         static_cast<float*>(nullptr), count);
  }));
  return bytes;
}

// [snippet:cub_device_scan]
void cub_inclusive_sum(const float* in, float* out, std::size_t n, void* temp, std::size_t temp_bytes,
                       cudaStream_t stream) {
  CUDA_CHECK(with_count(
      n, [&](auto count) { return cub::DeviceScan::InclusiveSum(temp, temp_bytes, in, out, count, stream); }));
  CUDA_CHECK_LAUNCH();
}
// [/snippet:cub_device_scan]

// [snippet:thrust_scan]
void thrust_inclusive_scan(const float* in, float* out, std::size_t n, cudaStream_t stream) {
  thrust::inclusive_scan(thrust::cuda::par.on(stream), in, in + n, out);
}

void thrust_inclusive_scan_cached(const float* in, float* out, std::size_t n, CachingAllocator& cache,
                                  cudaStream_t stream) {
  thrust::inclusive_scan(thrust::cuda::par(cache).on(stream), in, in + n, out);
}
// [/snippet:thrust_scan]

}  // namespace scan

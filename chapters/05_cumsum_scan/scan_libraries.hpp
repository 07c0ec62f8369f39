// The library scans the chapter's versions are measured against: CUB's device-wide scan and
// Thrust's, each in one call.
#pragma once

#include "caching_allocator.hpp"

#include <cuda_runtime.h>

#include <cstddef>

namespace scan {

// The scratch cub::DeviceScan::InclusiveSum needs for n floats (asked once, allocated once).
std::size_t cub_scan_temp_bytes(std::size_t n);
void cub_inclusive_sum(const float* in, float* out, std::size_t n, void* temp, std::size_t temp_bytes,
                       cudaStream_t stream = nullptr);

// thrust::inclusive_scan with Thrust's default allocation (a cudaMalloc and a cudaFree of its
// scratch in every call), and with `cache` providing the scratch.
void thrust_inclusive_scan(const float* in, float* out, std::size_t n, cudaStream_t stream = nullptr);
void thrust_inclusive_scan_cached(const float* in, float* out, std::size_t n, CachingAllocator& cache,
                                  cudaStream_t stream = nullptr);

}  // namespace scan

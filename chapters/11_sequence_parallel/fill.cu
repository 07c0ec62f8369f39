#include "fill.hpp"

#include "cuda_check.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace ch11 {
namespace {

// splitmix64: a full-period mix of the index, good enough for benchmark data.
__device__ __forceinline__ std::uint64_t mix(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

template <class T>
__global__ void fill_kernel(T* p, std::int64_t count, std::uint64_t seed, float lo, float hi) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const float unit = float(mix(seed ^ mix(std::uint64_t(i))) >> 40) * (1.f / 16777216.f);
    p[i] = T(lo + (hi - lo) * unit);
  }
}

}  // namespace

void fill_uniform(void* p, selective_scan::DataType type, std::int64_t count, std::uint64_t seed, float lo, float hi,
                  cudaStream_t stream) {
  const unsigned blocks = 1024, threads = 256;
  switch (type) {
    case selective_scan::DataType::float32:
      fill_kernel<<<blocks, threads, 0, stream>>>(static_cast<float*>(p), count, seed, lo, hi);
      break;
    case selective_scan::DataType::float16:
      fill_kernel<<<blocks, threads, 0, stream>>>(static_cast<__half*>(p), count, seed, lo, hi);
      break;
    case selective_scan::DataType::bfloat16:
      fill_kernel<<<blocks, threads, 0, stream>>>(static_cast<__nv_bfloat16*>(p), count, seed, lo, hi);
      break;
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace ch11

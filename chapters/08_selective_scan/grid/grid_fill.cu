// Normal random numbers drawn on the GPU, in the input type (grid_problem.cpp's inputs).
#include "grid_fill.hpp"

#include "cuda_check.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>

namespace ch08::grid {
namespace {

using selective_scan::DataType;

// A counter-based generator: value i of stream `seed` is a function of (seed, i) alone, so any
// thread draws any element. splitmix64's finalizer mixes the counter.
__device__ std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

template <class T>
__global__ void fill_normal(T* out, std::int64_t count, std::uint64_t seed, float scale) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const std::uint64_t bits = mix(seed * 0x100000000ull + std::uint64_t(i));
    // Box-Muller from two 24-bit uniforms in (0, 1].
    const float u1 = (float(bits >> 40) + 1.0f) / 16777216.0f, u2 = float((bits >> 16) & 0xffffff) / 16777216.0f;
    const float normal = sqrtf(-2.0f * logf(u1)) * cospif(2.0f * u2);
    out[i] = T(scale * normal);
  }
}

template <class T>
void fill(void* data, std::int64_t count, std::uint64_t seed, float scale) {
  const unsigned blocks = unsigned(std::min<std::int64_t>((count + 255) / 256, 4096));
  fill_normal<T><<<blocks, 256>>>(static_cast<T*>(data), count, seed, scale);
  CUDA_CHECK(cudaPeekAtLastError());
}

}  // namespace

void fill_normal_input(void* data, std::int64_t count, DataType type, std::uint64_t seed, float scale) {
  switch (type) {
    case DataType::float32: return fill<float>(data, count, seed, scale);
    case DataType::float16: return fill<__half>(data, count, seed, scale);
    case DataType::bfloat16: return fill<__nv_bfloat16>(data, count, seed, scale);
  }
}

}  // namespace ch08::grid

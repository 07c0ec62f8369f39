// What the library's kernels share to launch: a kernel a call of each input type, a grid that
// covers a count with a bound on its blocks, and the loop that covers the rest.
#pragma once

#include "ssd.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>

namespace ssd::detail {

// f(T{}) with T the C++ type of `type`: the one switch from the call's DataType to a template.
template <class F>
void by_type(DataType type, F&& f) {
  switch (type) {
    case DataType::float32: return f(float{});
    case DataType::float16: return f(__half{});
    case DataType::bfloat16: return f(__nv_bfloat16{});
  }
}

// Blocks of `threads` for `total` items, at most 2^20: past that, each thread loops.
inline unsigned blocks_for(std::int64_t total, int threads) {
  return unsigned(std::clamp<std::int64_t>((total + threads - 1) / threads, 1, std::int64_t(1) << 20));
}

}  // namespace ssd::detail

// for every item e < total, across the whole grid.
#define SSD_GRID_STRIDE(e, total)                                                         \
  for (std::int64_t e = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; e < (total); \
       e += std::int64_t(gridDim.x) * blockDim.x)

// What the library's kernels share to launch: a kernel a call of each input type, a grid that
// covers a count with a bound on its blocks, the loop that covers the rest, and how version 3's
// walks cut their rows.
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

// How version 3's walks (forward and backward) cut each of `units` rows of `chunks` chunks into
// segments of whole chunks: as many as fill once the `resident` blocks the GPU holds at a time, so
// that a few rows still keep every multiprocessor busy (each segment but one then needs a summary
// launch first). The last segment may have fewer chunks.
struct RowSegments {
  std::int64_t chunks_each;
  int count;
};
inline RowSegments row_segments(std::int64_t units, std::int64_t chunks, std::int64_t resident) {
  const std::int64_t wanted = std::clamp<std::int64_t>(resident / units, 1, chunks);
  const std::int64_t each = (chunks + wanted - 1) / wanted;
  return {each, int((chunks + each - 1) / each)};
}

}  // namespace ssd::detail

// for every item e < total, across the whole grid.
#define SSD_GRID_STRIDE(e, total)                                                         \
  for (std::int64_t e = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; e < (total); \
       e += std::int64_t(gridDim.x) * blockDim.x)

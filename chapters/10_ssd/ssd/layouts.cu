#include "layouts.hpp"

#include "check.hpp"
#include "device_math.cuh"
#include "launch.cuh"

#include <algorithm>

namespace ssd::detail {
namespace {

using selective_scan::detail::from_float;
using selective_scan::detail::sigmoid;
using selective_scan::detail::softplus;
using selective_scan::detail::to_float;

constexpr int kTile = 32;

// One 32 x 32 tile a block, through shared memory, so that both the reads and the writes are
// whole rows; the extra column keeps the transposed reads off a single bank.
template <class T>
__global__ void transpose_kernel(const T* in, T* out, std::int64_t rows, std::int64_t cols) {
  __shared__ T tile[kTile][kTile + 1];
  const std::int64_t batch = blockIdx.z;
  const std::int64_t row0 = std::int64_t(blockIdx.y) * kTile, col0 = std::int64_t(blockIdx.x) * kTile;
  const T* from = in + batch * rows * cols;
  T* to = out + batch * rows * cols;
  for (int r = int(threadIdx.y); r < kTile; r += int(blockDim.y)) {
    const std::int64_t row = row0 + r, col = col0 + threadIdx.x;
    if (row < rows && col < cols) tile[r][threadIdx.x] = from[row * cols + col];
  }
  __syncthreads();
  for (int c = int(threadIdx.y); c < kTile; c += int(blockDim.y)) {
    const std::int64_t col = col0 + c, row = row0 + threadIdx.x;
    if (row < rows && col < cols) to[col * rows + row] = tile[threadIdx.x][c];
  }
}

__global__ void repeat_kernel(const float* in, float* out, std::int64_t total, std::int64_t repeat) {
  SSD_GRID_STRIDE(e, total)
  out[e] = in[e / repeat];
}

constexpr int kMostZeroed = 8;
struct ZeroedList {
  Zeroed buffers[kMostZeroed];
  int count;
};

__global__ void zero_kernel(ZeroedList list) {
  for (int i = 0; i < list.count; ++i) {
    SSD_GRID_STRIDE(e, list.buffers[i].count)
    list.buffers[i].at[e] = 0.f;
  }
}

constexpr int kSumThreads = 256;

// Each thread adds a strided share in order, then the block adds the shares in a fixed tree:
// the same bits every run. In fp64, so that the sum's only fp32 rounding is the last (ddt_bias
// sums a term a position of the batch).
__global__ void sum_segments_kernel(const float* in, float* out, std::int64_t length) {
  __shared__ double partial[kSumThreads];
  const float* segment = in + blockIdx.x * length;
  double sum = 0.0;
  for (std::int64_t j = threadIdx.x; j < length; j += kSumThreads) sum += segment[j];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int half = kSumThreads / 2; half > 0; half /= 2) {
    if (int(threadIdx.x) < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = float(partial[0]);
}

__global__ void round_sums_kernel(const double* in, float* out, std::int64_t count) {
  SSD_GRID_STRIDE(i, count)
  out[i] = float(in[i]);
}

struct StepSizeRule {
  const float* bias;
  bool apply_softplus;
  float lo, hi;
  __device__ float pre_activation(float raw, int h) const { return raw + (bias ? bias[h] : 0.f); }
  __device__ float activated(float v) const { return apply_softplus ? softplus(v) : v; }
  __device__ float step(float raw, int h) const { return fminf(fmaxf(activated(pre_activation(raw, h)), lo), hi); }
  // d step / d raw: 0 where the clamp holds it (as torch.clamp's gradient, bounds included), the
  // softplus' slope (a sigmoid; 1 above 20, where softplus is the identity) where it is on.
  __device__ float slope(float raw, int h) const {
    const float v = pre_activation(raw, h), a = activated(v);
    if (a < lo || a > hi) return 0.f;
    return apply_softplus && v <= 20.f ? sigmoid(v) : 1.f;
  }
};

StepSizeRule rule_of(const ForwardParams& p) { return {p.dt_bias, p.dt_softplus, p.dt_min, p.dt_max}; }

// One thread per (b, channel, t) of delta, t fastest so that the writes are whole rows.
template <class T>
__global__ void expand_step_sizes_kernel(const T* dt, T* delta, Sizes s, StepSizeRule rule) {
  const std::int64_t channels = std::int64_t(s.heads) * s.head_dim, total = s.batch * channels * s.seqlen;
  SSD_GRID_STRIDE(e, total) {
    const std::int64_t t = e % s.seqlen, channel = e / s.seqlen % channels, b = e / s.seqlen / channels;
    const int h = int(channel / s.head_dim);
    delta[e] = from_float<T>(rule.step(to_float(dt[(b * s.seqlen + t) * s.heads + h]), h));
  }
}

// One thread per (b, h, t), t fastest so that the reads are whole rows: the head's channels'
// ddelta added in order.
template <class T>
__global__ void sum_head_gradients_kernel(const T* ddelta, float* per_head, Sizes s) {
  const std::int64_t total = s.batch * s.heads * s.seqlen;
  SSD_GRID_STRIDE(e, total) {
    const std::int64_t t = e % s.seqlen, b = e / s.seqlen / s.heads;
    const int h = int(e / s.seqlen % s.heads);
    const T* rows = ddelta + ((b * s.heads + h) * s.head_dim) * s.seqlen + t;
    float sum = 0.f;
    for (int i = 0; i < s.head_dim; ++i) sum += to_float(rows[std::int64_t(i) * s.seqlen]);
    per_head[(b * s.seqlen + t) * s.heads + h] = sum;
  }
}

// One thread per (b, t, h): the head's ∂L/∂dt' in fp32, times the slope.
template <class T>
__global__ void fold_step_gradients_kernel(const T* dt, const float* ddt_prime, T* ddt, float* ddt_by_head, Sizes s,
                                           StepSizeRule rule) {
  const std::int64_t total = s.batch * s.seqlen * s.heads;
  SSD_GRID_STRIDE(e, total) {
    const int h = int(e % s.heads);
    const std::int64_t t = e / s.heads % s.seqlen, b = e / s.heads / s.seqlen;
    const float g = ddt_prime[e] * rule.slope(to_float(dt[e]), h);
    ddt[e] = from_float<T>(g);
    if (ddt_by_head) ddt_by_head[(std::int64_t(h) * s.batch + b) * s.seqlen + t] = g;
  }
}

}  // namespace

void transpose(const void* in, void* out, std::int64_t outer, std::int64_t rows, std::int64_t cols, int bytes,
               cudaStream_t stream) {
  const dim3 grid(unsigned((cols + kTile - 1) / kTile), unsigned((rows + kTile - 1) / kTile), unsigned(outer));
  const dim3 block(kTile, 8);
  if (grid.y > 65535 || grid.z > 65535) throw Error("ssd: a tensor too large for the layout kernels");
  if (bytes == 4)
    transpose_kernel<<<grid, block, 0, stream>>>(static_cast<const float*>(in), static_cast<float*>(out), rows, cols);
  else
    transpose_kernel<<<grid, block, 0, stream>>>(static_cast<const unsigned short*>(in),
                                                 static_cast<unsigned short*>(out), rows, cols);
  SSD_CHECK_LAUNCH();
}

void repeat_per_head(const float* in, float* out, int heads, std::int64_t repeat, cudaStream_t stream) {
  const std::int64_t total = heads * repeat;
  repeat_kernel<<<blocks_for(total, 256), 256, 0, stream>>>(in, out, total, repeat);
  SSD_CHECK_LAUNCH();
}

void zero_floats(std::initializer_list<Zeroed> buffers, cudaStream_t stream) {
  ZeroedList list{};
  std::int64_t largest = 0;
  for (const Zeroed& b : buffers)
    if (b.at && b.count > 0) {
      if (list.count == kMostZeroed) throw Error("ssd: zero_floats takes at most 8 buffers a launch");
      list.buffers[list.count++] = b;
      largest = std::max(largest, b.count);
    }
  if (list.count == 0) return;
  zero_kernel<<<blocks_for(largest, 256), 256, 0, stream>>>(list);
  SSD_CHECK_LAUNCH();
}

void sum_segments(const float* in, float* out, std::int64_t segments, std::int64_t length, cudaStream_t stream) {
  sum_segments_kernel<<<unsigned(segments), kSumThreads, 0, stream>>>(in, out, length);
  SSD_CHECK_LAUNCH();
}

void round_sums(const double* in, float* out, std::int64_t count, cudaStream_t stream) {
  round_sums_kernel<<<blocks_for(count, 256), 256, 0, stream>>>(in, out, count);
  SSD_CHECK_LAUNCH();
}

void expand_step_sizes(const ForwardParams& p, void* delta, cudaStream_t stream) {
  const Sizes& s = p.sizes;
  const std::int64_t total = s.batch * s.heads * std::int64_t(s.head_dim) * s.seqlen;
  by_type(p.input_type, [&](auto zero) {
    using T = decltype(zero);
    expand_step_sizes_kernel<<<blocks_for(total, 256), 256, 0, stream>>>(static_cast<const T*>(p.dt),
                                                                         static_cast<T*>(delta), s, rule_of(p));
  });
  SSD_CHECK_LAUNCH();
}

void sum_head_gradients(const ForwardParams& p, const void* ddelta, float* per_head, cudaStream_t stream) {
  const Sizes& s = p.sizes;
  const std::int64_t total = s.batch * s.heads * s.seqlen;
  by_type(p.input_type, [&](auto zero) {
    using T = decltype(zero);
    sum_head_gradients_kernel<<<blocks_for(total, 256), 256, 0, stream>>>(static_cast<const T*>(ddelta), per_head, s);
  });
  SSD_CHECK_LAUNCH();
}

void fold_step_gradients(const ForwardParams& p, const float* ddt_prime, void* ddt, float* ddt_by_head,
                         cudaStream_t stream) {
  const Sizes& s = p.sizes;
  const std::int64_t total = s.batch * s.seqlen * s.heads;
  by_type(p.input_type, [&](auto zero) {
    using T = decltype(zero);
    fold_step_gradients_kernel<<<blocks_for(total, 256), 256, 0, stream>>>(
        static_cast<const T*>(p.dt), ddt_prime, static_cast<T*>(ddt), ddt_by_head, s, rule_of(p));
  });
  SSD_CHECK_LAUNCH();
}

}  // namespace ssd::detail

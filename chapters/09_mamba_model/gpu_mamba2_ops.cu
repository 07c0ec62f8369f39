// gpu_mamba2_ops.cu: the transposes between the model's layout and chapter 10's, and the gate.
//
// A transpose reads rows (time contiguous) and writes columns (channels contiguous): each block
// stages a 32 × 32 tile in shared memory, so that both the reads and the writes of a warp touch 32
// consecutive floats. The tile's rows are 33 floats apart, so a warp reading a column of it meets
// 32 different banks.
#include "gpu_mamba2_ops.hpp"

#include "cuda_check.hpp"
#include "gpu_launch.cuh"

namespace ch09::gpu {
namespace {

constexpr int kTile = 32, kTileRows = 8;  // a block of 32 × 8 threads moves one 32 × 32 tile

// blockIdx.x: a tile of times, blockIdx.y: a tile of rows, blockIdx.z: the batch entry.
template <bool kToTimeMajor>
__global__ void transpose_kernel(const float* in, float* out, long long rows_batch_stride, bool accumulate, int rows,
                                 int seqlen) {
  __shared__ float tile[kTile][kTile + 1];
  const long long b = blockIdx.z;
  const int t0 = blockIdx.x * kTile, r0 = blockIdx.y * kTile;
  const float* rows_base = kToTimeMajor ? in + b * rows_batch_stride : nullptr;
  const float* time_base = kToTimeMajor ? nullptr : in + b * static_cast<long long>(seqlen) * rows;
  // Read: from rows (a warp along t) or from the time-major tensor (a warp along r).
  for (int i = threadIdx.y; i < kTile; i += kTileRows) {
    if (kToTimeMajor) {
      const int r = r0 + i, t = t0 + threadIdx.x;
      if (r < rows && t < seqlen) tile[i][threadIdx.x] = rows_base[static_cast<long long>(r) * seqlen + t];
    } else {
      const int t = t0 + i, r = r0 + threadIdx.x;
      if (r < rows && t < seqlen) tile[threadIdx.x][i] = time_base[static_cast<long long>(t) * rows + r];
    }
  }
  __syncthreads();
  // Write: the other way round.
  for (int i = threadIdx.y; i < kTile; i += kTileRows) {
    if (kToTimeMajor) {
      const int t = t0 + i, r = r0 + threadIdx.x;
      if (r < rows && t < seqlen) out[(b * seqlen + t) * rows + r] = tile[threadIdx.x][i];
    } else {
      const int r = r0 + i, t = t0 + threadIdx.x;
      if (r < rows && t < seqlen) {
        float& o = out[b * rows_batch_stride + static_cast<long long>(r) * seqlen + t];
        o = accumulate ? o + tile[i][threadIdx.x] : tile[i][threadIdx.x];
      }
    }
  }
}

template <bool kToTimeMajor>
void transpose(const float* in, float* out, long long rows_batch_stride, bool accumulate, int batch, int rows,
               int seqlen, cudaStream_t stream) {
  if (batch == 0 || rows == 0 || seqlen == 0) return;
  const dim3 grid((seqlen + kTile - 1) / kTile, (rows + kTile - 1) / kTile, batch), block(kTile, kTileRows);
  transpose_kernel<kToTimeMajor><<<grid, block, 0, stream>>>(in, out, rows_batch_stride, accumulate, rows, seqlen);
  CUDA_CHECK_LAUNCH();
}

// One thread an element of (batch, channels, seqlen).
__global__ void gate_forward_kernel(const float* y, const float* z, long long z_batch_stride, float* g, int channels,
                                    int seqlen, long long count) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  const long long per_batch = static_cast<long long>(channels) * seqlen, b = i / per_batch;
  g[i] = y[i] * silu(z[b * z_batch_stride + i % per_batch]);
}

__global__ void gate_backward_kernel(const float* dg, const float* y, const float* z, long long z_batch_stride,
                                     float* dy, float* dz, long long dz_batch_stride, int channels, int seqlen,
                                     long long count) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  const long long per_batch = static_cast<long long>(channels) * seqlen, b = i / per_batch, within = i % per_batch;
  const float zi = z[b * z_batch_stride + within];
  dy[i] = dg[i] * silu(zi);
  dz[b * dz_batch_stride + within] = dg[i] * y[i] * silu_derivative(zi);
}

}  // namespace

void rows_to_time_major(const float* in, long long in_batch_stride, float* out, int batch, int rows, int seqlen,
                        cudaStream_t stream) {
  transpose<true>(in, out, in_batch_stride, false, batch, rows, seqlen, stream);
}

void time_major_to_rows(const float* in, float* out, long long out_batch_stride, bool accumulate, int batch, int rows,
                        int seqlen, cudaStream_t stream) {
  transpose<false>(in, out, out_batch_stride, accumulate, batch, rows, seqlen, stream);
}

void gate_forward(const float* y, const float* z, long long z_batch_stride, float* g, int batch, int channels,
                  int seqlen, cudaStream_t stream) {
  const long long count = static_cast<long long>(batch) * channels * seqlen;
  if (count == 0) return;
  gate_forward_kernel<<<blocks_for(count), kThreads, 0, stream>>>(y, z, z_batch_stride, g, channels, seqlen, count);
  CUDA_CHECK_LAUNCH();
}

void gate_backward(const float* dg, const float* y, const float* z, long long z_batch_stride, float* dy, float* dz,
                   long long dz_batch_stride, int batch, int channels, int seqlen, cudaStream_t stream) {
  const long long count = static_cast<long long>(batch) * channels * seqlen;
  if (count == 0) return;
  gate_backward_kernel<<<blocks_for(count), kThreads, 0, stream>>>(dg, y, z, z_batch_stride, dy, dz, dz_batch_stride,
                                                                   channels, seqlen, count);
  CUDA_CHECK_LAUNCH();
}

}  // namespace ch09::gpu

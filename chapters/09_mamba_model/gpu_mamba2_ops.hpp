// gpu_mamba2_ops.hpp: what the Mamba-2 layer adds to chapter 09's small kernels. Its SSD runs in
// chapter 10's library, which takes time-major tensors, (batch, seqlen, channels), where the model
// keeps channels-first ones, (batch, channels, seqlen): two transposes carry a run of rows across
// and back. The gate before the norm is y silu(z), element by element, and its backward.
#pragma once

#include <cuda_runtime_api.h>

namespace ch09::gpu {

// out[b, t, r] = in[b · in_batch_stride + r · seqlen + t] for r < rows: `rows` consecutive rows of a
// channels-first tensor (whose batches lie in_batch_stride floats apart) into a time-major one.
void rows_to_time_major(const float* in, long long in_batch_stride, float* out, int batch, int rows, int seqlen,
                        cudaStream_t stream = nullptr);

// The way back: out[b · out_batch_stride + r · seqlen + t] = in[b, t, r] (added to what out holds
// when `accumulate`).
void time_major_to_rows(const float* in, float* out, long long out_batch_stride, bool accumulate, int batch, int rows,
                        int seqlen, cudaStream_t stream = nullptr);

// g = y silu(z) on (batch, channels, seqlen) tensors; z's batches lie z_batch_stride floats apart
// (it is a run of rows of in_proj's output).
void gate_forward(const float* y, const float* z, long long z_batch_stride, float* g, int batch, int channels,
                  int seqlen, cudaStream_t stream = nullptr);

// From dg: dy = dg silu(z) and dz = dg y silu'(z), dz's batches dz_batch_stride floats apart.
void gate_backward(const float* dg, const float* y, const float* z, long long z_batch_stride, float* dy, float* dz,
                   long long dz_batch_stride, int batch, int channels, int seqlen, cudaStream_t stream = nullptr);

}  // namespace ch09::gpu

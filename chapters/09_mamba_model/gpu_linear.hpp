// gpu_linear.hpp: the model's matrix products through cuBLAS, on channels-first activations.
//
// A linear layer W (out, in), row-major, maps X (batch, in, L) to Y (batch, out, L): for every
// sequence b, Y[b] = W · X[b], a plain matrix product because time is the contiguous dimension.
// One strided-batched GEMM does every b at once and writes the channels-first layout directly,
// so nothing is ever transposed. Activations may be row slices of a larger tensor (the x and z
// halves of in_proj's output, Δ's low-rank rows of x_proj's output): each is given by its first
// element and its batch stride; its channel stride is always L.
//
// cuBLAS runs in fp32 with its default math mode (no TF32), so the products keep fp32's 24 bits
// and the model matches the fp64 reference closely.
#pragma once

#include <cublas_v2.h>

namespace ch09::gpu {

void check_cublas(cublasStatus_t status, const char* what, const char* file, int line);
#define CUBLAS_CHECK(call) ::ch09::gpu::check_cublas((call), #call, __FILE__, __LINE__)

// Activations of one tensor: (batch, rows, L) with rows L apart and sequences batch_stride apart.
struct Activations {
  const float* data;
  long long batch_stride;
};
struct MutableActivations {
  float* data;
  long long batch_stride;
};

class Linear {
 public:
  // The handle's stream is the stream of every call below.
  explicit Linear(cublasHandle_t handle) : handle_(handle) {}

  // Y = W X + beta Y   (beta = 1 adds the product to Y: the residual connection).
  void forward(const float* W, int out, int in, Activations X, MutableActivations Y, int batch, int seqlen,
               float beta = 0.0f) const;
  // dX = W^T dY + beta dX.
  void backward_input(const float* W, int out, int in, Activations dY, MutableActivations dX, int batch, int seqlen,
                      float beta = 0.0f) const;
  // dW = sum_b dY[b] X[b]^T, written. `per_sequence` holds batch * out * in floats (each sequence's
  // product, summed afterwards with one GEMV against `ones` (batch floats of 1): a fixed order,
  // no atomics).
  void backward_weight(Activations dY, Activations X, float* dW, int out, int in, int batch, int seqlen,
                       float* per_sequence, const float* ones) const;

  // One token per sequence (recurrent inference): Y (sequences, out) = X (sequences, in) W^T + beta Y,
  // one GEMM with the sequences as its columns; rows of X and Y are x_stride and y_stride apart.
  void forward_tokens(const float* W, int out, int in, const float* X, long long x_stride, float* Y, long long y_stride,
                      int sequences, float beta = 0.0f) const;

 private:
  cublasHandle_t handle_;
};

}  // namespace ch09::gpu

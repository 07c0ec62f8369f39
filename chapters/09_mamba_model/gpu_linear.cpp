// gpu_linear.cpp: cuBLAS is column-major, the model row-major. A row-major (rows, cols) matrix is
// the column-major (cols, rows) matrix with the same bytes, so each product below is written for
// the transposes: row-major Y[b] (out, L) = W X[b] is column-major Y^T (L, out) = X^T (L, in) · W^T (in, out),
// where X^T is X[b]'s bytes with leading dimension L and W^T is W's bytes with leading dimension in.
#include "gpu_linear.hpp"

#include <stdexcept>
#include <string>

namespace ch09::gpu {

void check_cublas(cublasStatus_t status, const char* what, const char* file, int line) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(what) + " failed at " + file + ":" + std::to_string(line) + ": " +
                             cublasGetStatusString(status));
}

// [snippet:linear_forward]
void Linear::forward(const float* W, int out, int in, Activations X, MutableActivations Y, int batch, int seqlen,
                     float beta) const {
  const float one = 1.0f;
  // Column-major: Y^T (L, out) = X^T (L, in) · W^T (in, out); W is shared by every sequence (stride 0).
  CUBLAS_CHECK(cublasSgemmStridedBatched(handle_, CUBLAS_OP_N, CUBLAS_OP_N, seqlen, out, in, &one, X.data, seqlen,
                                         X.batch_stride, W, in, 0, &beta, Y.data, seqlen, Y.batch_stride, batch));
}
// [/snippet:linear_forward]

void Linear::backward_input(const float* W, int out, int in, Activations dY, MutableActivations dX, int batch,
                            int seqlen, float beta) const {
  const float one = 1.0f;
  // Row-major dX[b] (in, L) = W^T dY[b]; column-major dX^T (L, in) = dY^T (L, out) · W (out, in),
  // and W (out, in) is the transpose of the column-major view of W's bytes.
  CUBLAS_CHECK(cublasSgemmStridedBatched(handle_, CUBLAS_OP_N, CUBLAS_OP_T, seqlen, in, out, &one, dY.data, seqlen,
                                         dY.batch_stride, W, in, 0, &beta, dX.data, seqlen, dX.batch_stride, batch));
}

void Linear::backward_weight(Activations dY, Activations X, float* dW, int out, int in, int batch, int seqlen,
                             float* per_sequence, const float* ones) const {
  const float one = 1.0f, zero = 0.0f;
  // Row-major dW_b (out, in) = dY[b] X[b]^T is column-major dW_b^T (in, out) = X[b] (in, L) · dY[b]^T (L, out),
  // where X[b] and dY[b] are the transposes of their column-major (L, rows) views.
  CUBLAS_CHECK(cublasSgemmStridedBatched(handle_, CUBLAS_OP_T, CUBLAS_OP_N, in, out, seqlen, &one, X.data, seqlen,
                                         X.batch_stride, dY.data, seqlen, dY.batch_stride, &zero, per_sequence, in,
                                         static_cast<long long>(out) * in, batch));
  // Sum over the sequences: the (out·in, batch) column-major matrix of per-sequence products times ones.
  const int elements = out * in;
  CUBLAS_CHECK(cublasSgemv(handle_, CUBLAS_OP_N, elements, batch, &one, per_sequence, elements, ones, 1, &zero, dW, 1));
}

void Linear::forward_tokens(const float* W, int out, int in, const float* X, long long x_stride, float* Y,
                            long long y_stride, int sequences, float beta) const {
  const float one = 1.0f;
  // Column-major: Y^T (out, sequences) = W (out, in) · X^T (in, sequences); W is the transpose of
  // the column-major view of its bytes.
  CUBLAS_CHECK(cublasSgemm(handle_, CUBLAS_OP_T, CUBLAS_OP_N, out, sequences, in, &one, W, in, X,
                           static_cast<int>(x_stride), &beta, Y, static_cast<int>(y_stride)));
}

}  // namespace ch09::gpu

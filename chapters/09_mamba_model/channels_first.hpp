// The fp64 model's projections on channels-first activations, (batch, channels, L) with time
// contiguous: a run of rows of such a tensor, and the matrix product every projection is (the
// GPU does it as a strided-batched GEMM), with its backward. reference_model.cpp and
// mamba2_block.cpp share them.
#pragma once

#include <cstddef>

namespace ch09 {

// Rows [0, stride) of (batch, stride, L); at(b, c, L) is row c of batch b.
struct Rows {
  const double* data;
  std::size_t stride;
  const double* at(std::size_t b, std::size_t c, std::size_t L) const { return data + (b * stride + c) * L; }
};
struct MutableRows {
  double* data;
  std::size_t stride;
  double* at(std::size_t b, std::size_t c, std::size_t L) const { return data + (b * stride + c) * L; }
};

// out[b, o, :] = Σ_i W[o, i] in[b, i, :] for a row-major W (rows, cols).
void linear(const double* W, std::size_t rows, std::size_t cols, Rows in, MutableRows out, std::size_t batch,
            std::size_t L);

// Its backward: din += Wᵀ·dout and dW += Σ_{b,t} dout·inᵀ.
void linear_backward(const double* W, std::size_t rows, std::size_t cols, Rows in, Rows dout, MutableRows din,
                     double* dW, std::size_t batch, std::size_t L);

}  // namespace ch09

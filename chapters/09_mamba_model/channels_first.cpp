#include "channels_first.hpp"

namespace ch09 {

void linear(const double* W, std::size_t rows, std::size_t cols, Rows in, MutableRows out, std::size_t batch,
            std::size_t L) {
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t o = 0; o < rows; ++o) {
      double* y = out.at(b, o, L);
      for (std::size_t t = 0; t < L; ++t) y[t] = 0.0;
      for (std::size_t i = 0; i < cols; ++i) {
        const double w = W[o * cols + i];
        const double* x = in.at(b, i, L);
        for (std::size_t t = 0; t < L; ++t) y[t] += w * x[t];
      }
    }
}

void linear_backward(const double* W, std::size_t rows, std::size_t cols, Rows in, Rows dout, MutableRows din,
                     double* dW, std::size_t batch, std::size_t L) {
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t o = 0; o < rows; ++o) {
      const double* g = dout.at(b, o, L);
      for (std::size_t i = 0; i < cols; ++i) {
        const double* x = in.at(b, i, L);
        double* dx = din.at(b, i, L);
        const double w = W[o * cols + i];
        double sum = 0.0;
        for (std::size_t t = 0; t < L; ++t) {
          sum += g[t] * x[t];
          dx[t] += w * g[t];
        }
        dW[o * cols + i] += sum;
      }
    }
}

}  // namespace ch09

// Exercise 2's solution: the HiPPO-LegS matrices (hippo.hpp).
#include "hippo.hpp"

#include <cmath>

namespace hippo {

// [snippet:legs]
Operator legs(int N) {
  Operator op{Matrix::Zero(N, N), Vector(N)};
  for (int n = 0; n < N; ++n) {
    op.B[n] = std::sqrt(2.0 * n + 1);
    for (int k = 0; k < n; ++k) op.A(n, k) = -std::sqrt((2.0 * n + 1) * (2.0 * k + 1));
    op.A(n, n) = -(n + 1.0);
  }
  return op;
}
// [/snippet:legs]

}  // namespace hippo

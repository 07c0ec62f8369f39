// Exercise 2: the HiPPO-LegS matrices, in S4's signs (stable A).
//
// Fill the N × N matrix A and the vector B of  dc/dt = (1/t) (A c + B f(t)):
//   A(n, k) = −√((2n + 1)(2k + 1))   for n > k      (below the diagonal)
//   A(n, n) = −(n + 1)                              (the diagonal)
//   A(n, k) = 0                       for n < k      (above: A is lower triangular)
//   B(n)    = √(2n + 1)
// The README derives them from the Legendre identity (x + 1) P'_n = n P_n + Σ_{k<n} (2k+1) P_k.
// Test it with:  scripts/exercise ch04_hippo 2
#include "hippo.hpp"

namespace hippo {

// [snippet:stub]
Operator legs(int N) {
  Operator op{Matrix::Zero(N, N), Vector::Zero(N)};
  // TODO(exercise): fill op.A and op.B.
  return op;
}
// [/snippet:stub]

}  // namespace hippo

// decay.hpp: Abar = exp(delta A), the one exponential per state and step. Host and device
// compile the same code, so a CPU test measures what the kernels compute near 0 (past |x| = 0.1
// each side calls its own exp).
#pragma once

#include <cmath>

#ifdef __CUDACC__
#define SELECTIVE_SCAN_HOST_DEVICE __host__ __device__
#else
#define SELECTIVE_SCAN_HOST_DEVICE
#endif

namespace selective_scan::detail {

// [snippet:decay]
// Abar = exp(x) for x = delta A, one per state element. A state with A near 0 remembers
// thousands of steps, so a *biased* error in Abar piles up: measured on an H200 for x in
// [-1e-3, -1e-4], expf is on average 0.26 ulp high and exp2f(x log2 e) 0.09 ulp low, and one
// ulp of bias moves an output of the peer grid by 3%. Near 0 we therefore write Abar = 1 + e
// with e = expm1(x) from its Taylor series to x^5 (the x^6 term is below 1.4e-9 for |x| < 0.1),
// which rounds to nearest on average (a test measures it); where |x| >= 0.1 the decay is fast,
// nothing piles up, and expf is fine.
SELECTIVE_SCAN_HOST_DEVICE inline float decay(float x) {
  if (std::fabs(x) >= 0.1f) return std::exp(x);
  float e = std::fma(x, 1.f / 120, 1.f / 24);
  e = std::fma(x, e, 1.f / 6);
  e = std::fma(x, e, 0.5f);
  e = std::fma(x, e, 1.f);
  return std::fma(x, e, 1.f);
}
// [/snippet:decay]

}  // namespace selective_scan::detail

// The per-element arithmetic that every kernel version shares.
#pragma once

#include "zoh_kernels.hpp"

namespace zoh {

// φ₁(z) = (exp(z) − 1)/z in fp32: expm1f keeps its digits for small z (1 ulp), and z = 0
// (a_dn = 0) gives the limit 1 instead of 0/0.
__device__ __forceinline__ float phi1f(float z) { return z == 0.f ? 1.f : expm1f(z) / z; }

// B̄ for one element. A branch that every thread of the launch takes the same way costs
// next to nothing.
__device__ __forceinline__ float input_factor(Rule rule, float delta, float a, float b) {
  const float delta_b = delta * b;
  return rule == Rule::zoh ? delta_b * phi1f(delta * a) : delta_b;
}

}  // namespace zoh

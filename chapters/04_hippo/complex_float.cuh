// Complex fp32 arithmetic on float2 (x = real part, y = imaginary part), written out so
// that every multiply-add is visible; and e^z for complex z.
#pragma once

#include <cuda_runtime.h>

namespace s4d {

__device__ __forceinline__ float2 complex_mul(float2 a, float2 b) {
  return make_float2(fmaf(a.x, b.x, -a.y * b.y), fmaf(a.x, b.y, a.y * b.x));
}

// e^z for z = (Re z, Im z / π): the imaginary part counted in half-turns. sincospif reduces
// a half-turn count exactly (x mod 2 is exact in floating point), so a large ℓ·Im z costs
// nothing extra; sincosf would take its slow path (a local array: a stack frame) for
// arguments past ~1e5 radians, and __sincosf would lose all accuracy there.
__device__ __forceinline__ float2 complex_exp_halfturns(float2 z) {
  float s, c;
  sincospif(z.y, &s, &c);
  const float magnitude = expf(z.x);
  return make_float2(magnitude * c, magnitude * s);
}

}  // namespace s4d

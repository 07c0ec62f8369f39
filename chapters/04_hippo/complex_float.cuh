// Complex fp32 arithmetic on float2 (x = real part, y = imaginary part), written out so
// that every multiply-add is visible; and e^z for complex z.
#pragma once

#include <cuda_runtime.h>

namespace s4d {

__device__ __forceinline__ float2 complex_mul(float2 a, float2 b) {
  return make_float2(fmaf(a.x, b.x, -a.y * b.y), fmaf(a.x, b.y, a.y * b.x));
}

// e^z = e^{Re z} (cos Im z + i sin Im z). sincosf (not __sincosf) reduces large arguments
// exactly, so the only error that grows with |z| is the one already in z itself.
__device__ __forceinline__ float2 complex_exp(float2 z) {
  float s, c;
  sincosf(z.y, &s, &c);
  const float magnitude = expf(z.x);
  return make_float2(magnitude * c, magnitude * s);
}

}  // namespace s4d

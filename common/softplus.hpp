// softplus(x) = log(1 + e^x): Mamba's map from the raw step size to Δ > 0 (chapters 08 and 09),
// on the host in fp64 and on the GPU in fp32. Above x = 20 it returns x itself, as the official
// kernel does (log(1 + e^x) − x = log(1 + e^−x) < 3e-9 there, below fp32's rounding of x); the
// fp64 references cut at the same place, so that they compute the same function as the kernels.
// (Chapter 08's selective_scan library keeps its own fp32 copy: it builds without common/.)
#pragma once

#include <cmath>

#ifdef __CUDACC__
#define COMMON_HOST_DEVICE __host__ __device__
#else
#define COMMON_HOST_DEVICE
#endif

namespace common {

template <class Real>
COMMON_HOST_DEVICE inline Real softplus(Real x) {
  return x > Real(20) ? x : std::log1p(std::exp(x));
}

}  // namespace common

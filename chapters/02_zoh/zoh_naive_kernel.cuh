// Version 1, declared here and defined in zoh_naive_kernel.cu -- exercise 3, whose stub is
// exercises/zoh_naive_kernel.cu. zoh_kernels.cu launches it.
#pragma once

#include "zoh_kernels.hpp"

namespace zoh {

// One thread per output element i of (batch, L, D, N): writes Ā[i] = expf(Δ a) and
// B̄[i] = input_factor(rule, Δ, a, b) (discretize_math.cuh).
__global__ void discretize_naive(Rule rule, DeviceProblem p);

}  // namespace zoh

// gpu_ssm_parameters.hpp: A = -exp(A_log) for the scan, and the chain rule back to A_log.
//
// The model learns A_log (so that A stays negative: every state decays); chapter 08's scan takes A.
#pragma once

#include <cuda_runtime_api.h>

namespace ch09::gpu {

// A[i] = -exp(A_log[i]) for i < count.
void decay_from_log(const float* A_log, float* A, int count, cudaStream_t stream = nullptr);

// dA_log[i] = dA[i] * A[i]  (dA/dA_log = -exp(A_log) = A).
void decay_log_gradient(const float* dA, const float* A, float* dA_log, int count, cudaStream_t stream = nullptr);

}  // namespace ch09::gpu

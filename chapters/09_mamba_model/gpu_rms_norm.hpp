// gpu_rms_norm.hpp: RMSNorm over the channels of a channels-first tensor, forward and backward.
//
// At each (b, t): rstd = 1 / sqrt(mean_c x[b, c, t]^2 + eps), y[b, c, t] = x[b, c, t] rstd w[c].
#pragma once

#include <cuda_runtime_api.h>

namespace ch09::gpu {

constexpr float kRmsNormEps = 1e-5f;

// x, y (batch, channels, seqlen); rstd (batch, seqlen) is kept for the backward.
void rms_norm_forward(const float* x, const float* w, float* y, float* rstd, int batch, int channels, int seqlen,
                      cudaStream_t stream = nullptr);

// From dy: dx (added to what dx holds when `accumulate_dx`, the residual stream's gradient) and
// dw (channels), overwritten.
void rms_norm_backward(const float* dy, const float* x, const float* rstd, const float* w, float* dx,
                       bool accumulate_dx, float* dw, int batch, int channels, int seqlen,
                       cudaStream_t stream = nullptr);

}  // namespace ch09::gpu

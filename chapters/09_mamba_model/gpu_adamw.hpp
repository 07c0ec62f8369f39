// gpu_adamw.hpp: one AdamW step over the whole flat parameter array, the GPU twin of
// cpu_training.hpp's adamw_step (same settings struct, same formula, same clipping):
//   g ← g · min(1, clip_norm / |g|)   (|g| the global L2 norm over every parameter; no clip when clip_norm is 0)
//   m ← β1 m + (1-β1) g,  v ← β2 v + (1-β2) g²,
//   p ← p - lr (m/(1-β1^t) / (sqrt(v/(1-β2^t)) + eps) + weight_decay · decay · p)
#pragma once

#include "cpu_training.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>

namespace ch09::gpu {

// *norm = the L2 norm of g (count floats), summed in a fixed order on the device.
void gradient_norm(const float* g, std::size_t count, float* norm, cudaStream_t stream = nullptr);

// p, m, v updated in place from g; decay (0 or 1 per parameter, cpu_training's weight_decay_mask)
// says where weight decay applies; `norm` is gradient_norm's result on the device (read there, so
// the clipping needs no trip to the host). `step` counts from 1. The learning rate is `lr`, not
// settings.lr (the caller's schedule applies).
void adamw_step(float* p, const float* g, float* m, float* v, const float* decay, std::size_t count,
                const AdamWSettings& settings, float lr, int step, const float* norm, cudaStream_t stream = nullptr);

}  // namespace ch09::gpu

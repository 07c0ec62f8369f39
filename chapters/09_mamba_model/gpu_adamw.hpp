// gpu_adamw.hpp: one AdamW step over the whole flat parameter array (adamw.hpp has the formula).
#pragma once

#include "adamw.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>

namespace ch09::gpu {

// p, m, v updated in place from g; decay (0 or 1 per parameter) says where weight decay applies.
// `step` counts from 1 (it sets the bias corrections).
void adamw_step(float* p, const float* g, float* m, float* v, const unsigned char* decay, std::size_t count,
                const AdamWSettings& settings, float lr, int step, cudaStream_t stream = nullptr);

}  // namespace ch09::gpu

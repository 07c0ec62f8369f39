// adamw.hpp: the optimizer's settings, in one place for the CPU and the GPU training.
//
// AdamW (Loshchilov & Hutter), as PyTorch's torch.optim.AdamW computes it, for each parameter p
// with gradient g at step s = 1, 2, ...:
//   m = beta1 m + (1 - beta1) g,   v = beta2 v + (1 - beta2) g^2
//   p = p - lr (weight_decay p + (m / (1 - beta1^s)) / (sqrt(v / (1 - beta2^s)) + eps))
// The weight decay applies where parameter_blocks() (model_config.hpp) says `decays`: the
// matrices, not the norms, biases, D or the SSM's A_log, B, C.
#pragma once

#include "model_config.hpp"

#include <cstddef>
#include <vector>

namespace ch09 {

struct AdamWSettings {
  float beta1 = 0.9f;
  float beta2 = 0.999f;
  float eps = 1e-8f;
  float weight_decay = 0.1f;
};

// 1 where a parameter is decayed, 0 elsewhere (layout total entries; padding is 0).
inline std::vector<unsigned char> weight_decay_mask(const ModelConfig& config) {
  std::vector<unsigned char> mask(parameter_layout(config).total, 0);
  for (const ParameterBlock& block : parameter_blocks(config))
    if (block.decays)
      for (std::size_t i = 0; i < block.count; ++i) mask[block.offset + i] = 1;
  return mask;
}

}  // namespace ch09

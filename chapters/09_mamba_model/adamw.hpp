// adamw.hpp: the optimizer's settings, in one place for the CPU and the GPU training.
//
// AdamW (Loshchilov & Hutter), as PyTorch's torch.optim.AdamW computes it, for each parameter p
// with gradient g at step s = 1, 2, ...:
//   m = beta1 m + (1 - beta1) g,   v = beta2 v + (1 - beta2) g^2
//   p = p - lr (weight_decay p + (m / (1 - beta1^s)) / (sqrt(v / (1 - beta2^s)) + eps))
// The weight decay applies to the matrices only: the embedding (also the LM head) and the four
// projections in_proj, x_proj, dt_proj, out_proj. Norm weights, biases, the convolution's taps
// and the SSM's own parameters (A_log, D, dt_bias, and the LTI model's B, C) are not decayed:
// pulling A_log or dt_bias towards 0 would change the time scales the model learns, not shrink
// a weight (Mamba's training code exempts A_log and D the same way).
#pragma once

#include "model_config.hpp"

#include <cstddef>
#include <utility>
#include <vector>

namespace ch09 {

struct AdamWSettings {
  float beta1 = 0.9f;
  float beta2 = 0.999f;
  float eps = 1e-8f;
  float weight_decay = 0.1f;
};

// The (offset, count) ranges of the flat parameter array that are decayed.
inline std::vector<std::pair<std::size_t, std::size_t>> weight_decay_ranges(const ModelConfig& config) {
  const ParameterLayout layout = parameter_layout(config);
  const std::size_t D = config.d_model, E = config.d_inner(), R = config.dt_rank;
  std::vector<std::pair<std::size_t, std::size_t>> ranges{{layout.embedding, config.vocab * D}};
  for (const LayerOffsets& layer : layout.layers) {
    ranges.push_back({layer.in_proj, 2 * E * D});
    if (layer.x_proj != kAbsent) ranges.push_back({layer.x_proj, config.x_proj_rows() * E});
    if (layer.dt_proj != kAbsent) ranges.push_back({layer.dt_proj, E * R});
    ranges.push_back({layer.out_proj, D * E});
  }
  return ranges;
}

// 1 where a parameter is decayed, 0 elsewhere (layout.total entries).
inline std::vector<unsigned char> weight_decay_mask(const ModelConfig& config) {
  std::vector<unsigned char> mask(parameter_layout(config).total, 0);
  for (const auto& [offset, count] : weight_decay_ranges(config))
    for (std::size_t i = 0; i < count; ++i) mask[offset + i] = 1;
  return mask;
}

}  // namespace ch09

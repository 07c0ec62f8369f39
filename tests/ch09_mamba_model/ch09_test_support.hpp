// Small helpers shared by chapter 09's CPU tests: tiny models and batches with every parameter
// away from its special initial value, so that no gradient is zero by accident.
#pragma once

#include "compare.hpp"
#include "model_config.hpp"
#include "selective_copying.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#define CHECK_CLOSE(what, comparison)             \
  do {                                            \
    const ::common::Comparison c_ = (comparison); \
    INFO(what << ": " << c_.summary());           \
    CHECK(c_.ok);                                 \
  } while (0)

namespace ch09_test {

// Two layers, every size small and different from the others, so that a swapped index shows.
inline ch09::ModelConfig tiny_config(ch09::SsmKind kind) {
  ch09::ModelConfig c;
  c.vocab = 7;
  c.d_model = 5;
  c.layers = 2;
  c.d_state = 3;
  c.expand = 2;
  c.conv_width = 4;
  c.dt_rank = 2;
  c.kind = kind;
  return c;
}

// Mamba's initialization plus noise: norms, D and A_log leave their round values, Δ grows to
// about 0.1-1 so that the scan's state carries information across steps.
inline std::vector<double> tiny_parameters(const ch09::ModelConfig& c, unsigned seed) {
  const std::vector<float> init = ch09::initial_parameters(c, seed);
  std::vector<double> p(init.begin(), init.end());
  std::mt19937_64 rng(seed + 1000);
  std::normal_distribution<double> noise(0.0, 0.3);
  for (const ch09::ParameterBlock& b : ch09::parameter_blocks(c))
    for (std::size_t i = 0; i < b.count; ++i) {
      double& v = p[b.offset + i];
      v += b.block == "dt_bias" ? 1.5 + noise(rng) : noise(rng);
    }
  return p;
}

// Random tokens and targets (some unscored), unlike the task's, so every position matters.
inline ch09::Batch random_batch(int vocab, int batch, int seqlen, unsigned seed) {
  std::mt19937_64 rng(seed);
  ch09::Batch b;
  b.batch = batch;
  b.seqlen = seqlen;
  for (int i = 0; i < batch * seqlen; ++i) {
    b.tokens.push_back(int(rng() % unsigned(vocab)));
    b.targets.push_back(rng() % 3 == 0 ? -1 : int(rng() % unsigned(vocab)));
  }
  return b;
}

}  // namespace ch09_test

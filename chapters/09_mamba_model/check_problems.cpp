#include "check_problems.hpp"

#include <random>

namespace ch09 {

ModelConfig tiny_config(SsmKind kind) {
  ModelConfig c;
  c.vocab = 7;
  c.d_model = 5;
  c.layers = 2;
  c.d_state = 3;
  c.expand = 2;
  c.conv_width = 4;
  c.dt_rank = 2;
  c.head_dim = 5;  // Mamba-2: two heads of the 10 inner channels
  c.kind = kind;
  return c;
}

std::vector<double> tiny_parameters(const ModelConfig& c, unsigned seed) {
  const std::vector<float> init = initial_parameters(c, seed);
  std::vector<double> p(init.begin(), init.end());
  std::mt19937_64 rng(seed + 1000);
  std::normal_distribution<double> noise(0.0, 0.3);
  for (const ParameterBlock& b : parameter_blocks(c))
    for (std::size_t i = 0; i < b.count; ++i) {
      double& v = p[b.offset + i];
      v += b.block == "dt_bias" ? 1.5 + noise(rng) : noise(rng);
    }
  return p;
}

Batch random_batch(int vocab, int batch, int seqlen, unsigned seed) {
  std::mt19937_64 rng(seed);
  Batch b;
  b.batch = batch;
  b.seqlen = seqlen;
  for (int i = 0; i < batch * seqlen; ++i) {
    b.tokens.push_back(int(rng() % unsigned(vocab)));
    b.targets.push_back(rng() % 3 == 0 ? -1 : int(rng() % unsigned(vocab)));
  }
  return b;
}

}  // namespace ch09

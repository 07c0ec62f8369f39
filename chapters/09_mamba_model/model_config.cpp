#include "model_config.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace ch09 {

std::string to_string(SsmKind kind) {
  switch (kind) {
    case SsmKind::selective: return "selective";
    case SsmKind::lti: return "LTI";
    case SsmKind::mamba2: return "Mamba-2";
  }
  return "unknown";
}

std::string to_string(const ModelConfig& c) {
  return to_string(c.kind) + ": vocab " + std::to_string(c.vocab) + ", d_model " + std::to_string(c.d_model) +
         ", layers " + std::to_string(c.layers) + ", N " + std::to_string(c.d_state) + ", expand " +
         std::to_string(c.expand) + ", conv " + std::to_string(c.conv_width) +
         (c.kind == SsmKind::mamba2 ? ", head_dim " + std::to_string(c.head_dim)
                                    : ", dt_rank " + std::to_string(c.dt_rank));
}

std::string ModelConfig::validate() const {
  auto at_least = [](int value, int least, const char* name) -> std::string {
    if (value >= least) return "";
    return std::string(name) + " is " + std::to_string(value) + ", must be at least " + std::to_string(least);
  };
  for (const std::string& problem :
       {at_least(vocab, 2, "vocab"), at_least(d_model, 1, "d_model"), at_least(layers, 1, "layers"),
        at_least(d_state, 1, "d_state"), at_least(expand, 1, "expand"), at_least(conv_width, 1, "conv_width"),
        kind == SsmKind::selective ? at_least(dt_rank, 1, "dt_rank") : std::string(),
        kind == SsmKind::mamba2 ? mamba2().validate() : std::string()})
    if (!problem.empty()) return problem;
  return "";
}

namespace {

// Every block starts at a multiple of 4 floats (16 bytes), so that vector loads and cuBLAS see
// aligned pointers whatever the sizes; the few floats of padding stay zero forever (their
// gradient is zero and weight decay keeps zero at zero).
std::size_t aligned(std::size_t offset) { return (offset + 3) / 4 * 4; }

}  // namespace

namespace {

// Each layer's blocks in memory order, with their sizes for the config's kind (0: the kind has no
// such block); parameter_layout places them, parameter_blocks names them.
struct LayerBlock {
  const char* name;
  std::size_t LayerOffsets::*offset;
  std::size_t count;
  bool decays;
};
std::vector<LayerBlock> layer_blocks(const ModelConfig& c) {
  const std::size_t dm = std::size_t(c.d_model), di = std::size_t(c.d_inner()), n = std::size_t(c.d_state),
                    W = std::size_t(c.conv_width);
  const bool selective = c.kind == SsmKind::selective, lti = c.kind == SsmKind::lti;
  if (c.kind == SsmKind::mamba2) {
    const Mamba2Sizes m = c.mamba2();
    const std::size_t heads = std::size_t(m.heads()), K = std::size_t(m.conv_channels());
    return {{"norm", &LayerOffsets::norm, dm, false},
            {"in_proj", &LayerOffsets::in_proj, std::size_t(m.in_proj_rows()) * dm, true},
            {"conv_weight", &LayerOffsets::conv_weight, K * W, true},
            {"conv_bias", &LayerOffsets::conv_bias, K, false},
            {"dt_bias", &LayerOffsets::dt_bias, heads, false},
            {"A_log", &LayerOffsets::A_log, heads, false},
            {"D", &LayerOffsets::D, heads, false},
            {"gate_norm", &LayerOffsets::gate_norm, di, false},
            {"out_proj", &LayerOffsets::out_proj, dm * di, true}};
  }
  return {{"norm", &LayerOffsets::norm, dm, false},
          {"in_proj", &LayerOffsets::in_proj, 2 * di * dm, true},
          {"conv_weight", &LayerOffsets::conv_weight, di * W, true},
          {"conv_bias", &LayerOffsets::conv_bias, di, false},
          {"x_proj", &LayerOffsets::x_proj, selective ? std::size_t(c.x_proj_rows()) * di : 0, true},
          {"dt_proj", &LayerOffsets::dt_proj, selective ? di * std::size_t(c.dt_rank) : 0, true},
          {"dt_bias", &LayerOffsets::dt_bias, di, false},
          {"A_log", &LayerOffsets::A_log, di * n, false},
          {"D", &LayerOffsets::D, di, false},
          {"B", &LayerOffsets::B, lti ? di * n : 0, false},
          {"C", &LayerOffsets::C, lti ? di * n : 0, false},
          {"out_proj", &LayerOffsets::out_proj, dm * di, true}};
}

}  // namespace

ParameterLayout parameter_layout(const ModelConfig& c) {
  ParameterLayout layout;
  std::size_t next = 0;
  auto take = [&next](std::size_t count) {
    const std::size_t offset = next;
    next = aligned(next + count);
    return offset;
  };
  layout.embedding = take(std::size_t(c.vocab) * std::size_t(c.d_model));
  for (int l = 0; l < c.layers; ++l) {
    LayerOffsets o{kAbsent, kAbsent, kAbsent, kAbsent, kAbsent, kAbsent, kAbsent,
                   kAbsent, kAbsent, kAbsent, kAbsent, kAbsent, kAbsent};
    for (const LayerBlock& block : layer_blocks(c))
      if (block.count > 0) o.*block.offset = take(block.count);
    layout.layers.push_back(o);
  }
  layout.final_norm = take(std::size_t(c.d_model));
  layout.total = next;
  return layout;
}

std::vector<ParameterBlock> parameter_blocks(const ModelConfig& c) {
  const ParameterLayout layout = parameter_layout(c);
  std::vector<ParameterBlock> blocks;
  const std::size_t dm = std::size_t(c.d_model);
  blocks.push_back({"embedding", "embedding", -1, layout.embedding, std::size_t(c.vocab) * dm, true});
  for (int l = 0; l < c.layers; ++l)
    for (const LayerBlock& block : layer_blocks(c))
      if (block.count > 0)
        blocks.push_back({"layer " + std::to_string(l) + " " + block.name, block.name, l,
                          layout.layers[std::size_t(l)].*block.offset, block.count, block.decays});
  blocks.push_back({"final_norm", "final_norm", -1, layout.final_norm, dm, false});
  return blocks;
}

namespace {

// A small generator of its own (splitmix64) rather than <random>'s distributions, whose output
// the C++ standard leaves to each library: the same seed gives the same weights everywhere.
struct Stream {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }             // [0, 1)
  double uniform(double bound) { return (2.0 * uniform() - 1.0) * bound; }  // [-bound, bound)
  double normal() {                                                         // Box-Muller
    const double u1 = 1.0 - uniform(), u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }
};

}  // namespace

std::vector<float> initial_parameters(const ModelConfig& c, unsigned seed) {
  const ParameterLayout layout = parameter_layout(c);
  std::vector<float> p(layout.total, 0.0f);
  const std::size_t dm = std::size_t(c.d_model), di = std::size_t(c.d_inner()), n = std::size_t(c.d_state);
  // Each block draws from a stream of its own (seed, layer, block), so a selective and an LTI
  // model of the same seed start with the same weights in every block they share.
  auto stream = [seed](int layer, int block) {
    return Stream{(std::uint64_t(seed) << 32) ^ (std::uint64_t(layer + 1) << 8) ^ std::uint64_t(block)};
  };
  auto fill_uniform = [&p](std::size_t offset, std::size_t count, double bound, Stream s) {
    for (std::size_t i = 0; i < count; ++i) p[offset + i] = float(s.uniform(bound));
  };
  auto fill = [&p](std::size_t offset, std::size_t count, float value) {
    for (std::size_t i = 0; i < count; ++i) p[offset + i] = value;
  };

  {
    Stream s = stream(-1, 0);
    for (std::size_t i = 0; i < std::size_t(c.vocab) * dm; ++i) p[layout.embedding + i] = float(0.02 * s.normal());
  }
  // A selective or LTI layer has a Δ for each of its d_inner channels, a Mamba-2 layer one a head;
  // a Mamba-2 layer's convolution also runs over B and C.
  const bool mamba2 = c.kind == SsmKind::mamba2;
  const std::size_t steps = mamba2 ? std::size_t(c.mamba2().heads()) : di;
  const std::size_t conv_channels = mamba2 ? std::size_t(c.mamba2().conv_channels()) : di;
  const std::size_t in_proj_rows = mamba2 ? std::size_t(c.mamba2().in_proj_rows()) : 2 * di;
  for (int l = 0; l < c.layers; ++l) {
    const LayerOffsets& o = layout.layers[std::size_t(l)];
    fill(o.norm, dm, 1.0f);
    fill_uniform(o.in_proj, in_proj_rows * dm, 1.0 / std::sqrt(double(dm)), stream(l, 1));
    fill_uniform(o.conv_weight, conv_channels * std::size_t(c.conv_width), 1.0 / std::sqrt(double(c.conv_width)),
                 stream(l, 2));
    fill_uniform(o.conv_bias, conv_channels, 1.0 / std::sqrt(double(c.conv_width)), stream(l, 3));
    if (o.x_proj != kAbsent) {
      fill_uniform(o.x_proj, std::size_t(c.x_proj_rows()) * di, 1.0 / std::sqrt(double(di)), stream(l, 4));
      fill_uniform(o.dt_proj, di * std::size_t(c.dt_rank), 1.0 / std::sqrt(double(c.dt_rank)), stream(l, 5));
    }
    // [snippet:dt_bias_init]
    // Δ starts log-uniform in [0.001, 0.1]: the bias is softplus's inverse of it, so that
    // softplus(0 + dt_bias) gives that Δ back when the input's contribution is zero.
    Stream s = stream(l, 6);
    for (std::size_t d = 0; d < steps; ++d) {
      const double dt = std::max(1e-4, std::exp(std::log(1e-3) + s.uniform() * (std::log(1e-1) - std::log(1e-3))));
      p[o.dt_bias + d] = float(dt + std::log(-std::expm1(-dt)));  // log(e^dt - 1)
    }
    // [/snippet:dt_bias_init]
    if (mamba2) {
      // One A a head drawn from U(1, 16) (the Mamba2 module's A_init_range); the norm after the gate at 1.
      Stream sa = stream(l, 9);
      for (std::size_t h = 0; h < steps; ++h) p[o.A_log + h] = float(std::log(1.0 + 15.0 * sa.uniform()));
      fill(o.gate_norm, di, 1.0f);
    } else {
      for (std::size_t d = 0; d < di; ++d)
        for (std::size_t k = 0; k < n; ++k) p[o.A_log + d * n + k] = float(std::log(double(k + 1)));  // A = -(1..N)
    }
    fill(o.D, steps, 1.0f);
    if (o.B != kAbsent) {
      fill(o.B, di * n, 1.0f);
      Stream sc = stream(l, 7);
      for (std::size_t i = 0; i < di * n; ++i) p[o.C + i] = float(sc.normal());
    }
    fill_uniform(o.out_proj, dm * di, 1.0 / std::sqrt(double(di)) / std::sqrt(double(c.layers)), stream(l, 8));
  }
  fill(layout.final_norm, dm, 1.0f);
  return p;
}

}  // namespace ch09

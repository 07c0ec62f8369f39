#include "model_config.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace ch09 {

std::string to_string(SsmKind kind) { return kind == SsmKind::selective ? "selective" : "LTI"; }

std::string to_string(const ModelConfig& c) {
  return to_string(c.kind) + ": vocab " + std::to_string(c.vocab) + ", d_model " + std::to_string(c.d_model) +
         ", layers " + std::to_string(c.layers) + ", N " + std::to_string(c.d_state) + ", expand " +
         std::to_string(c.expand) + ", conv " + std::to_string(c.conv_width) + ", dt_rank " + std::to_string(c.dt_rank);
}

std::string ModelConfig::validate() const {
  auto at_least = [](int value, int least, const char* name) -> std::string {
    if (value >= least) return "";
    return std::string(name) + " is " + std::to_string(value) + ", must be at least " + std::to_string(least);
  };
  for (const std::string& problem :
       {at_least(vocab, 2, "vocab"), at_least(d_model, 1, "d_model"), at_least(layers, 1, "layers"),
        at_least(d_state, 1, "d_state"), at_least(expand, 1, "expand"), at_least(conv_width, 1, "conv_width"),
        kind == SsmKind::selective ? at_least(dt_rank, 1, "dt_rank") : std::string()})
    if (!problem.empty()) return problem;
  return "";
}

namespace {

// Every block starts at a multiple of 4 floats (16 bytes), so that vector loads and cuBLAS see
// aligned pointers whatever the sizes; the few floats of padding stay zero forever (their
// gradient is zero and weight decay keeps zero at zero).
std::size_t aligned(std::size_t offset) { return (offset + 3) / 4 * 4; }

}  // namespace

ParameterLayout parameter_layout(const ModelConfig& c) {
  const std::size_t dm = std::size_t(c.d_model), di = std::size_t(c.d_inner()), n = std::size_t(c.d_state);
  const bool selective = c.kind == SsmKind::selective;
  ParameterLayout layout;
  std::size_t next = 0;
  auto take = [&next](std::size_t count) {
    const std::size_t offset = next;
    next = aligned(next + count);
    return offset;
  };
  layout.embedding = take(std::size_t(c.vocab) * dm);
  for (int l = 0; l < c.layers; ++l) {
    LayerOffsets o;
    o.norm = take(dm);
    o.in_proj = take(2 * di * dm);
    o.conv_weight = take(di * std::size_t(c.conv_width));
    o.conv_bias = take(di);
    o.x_proj = selective ? take(std::size_t(c.x_proj_rows()) * di) : kAbsent;
    o.dt_proj = selective ? take(di * std::size_t(c.dt_rank)) : kAbsent;
    o.dt_bias = take(di);
    o.A_log = take(di * n);
    o.D = take(di);
    o.B = selective ? kAbsent : take(di * n);
    o.C = selective ? kAbsent : take(di * n);
    o.out_proj = take(dm * di);
    layout.layers.push_back(o);
  }
  layout.final_norm = take(dm);
  layout.total = next;
  return layout;
}

std::vector<ParameterBlock> parameter_blocks(const ModelConfig& c) {
  const ParameterLayout layout = parameter_layout(c);
  const std::size_t dm = std::size_t(c.d_model), di = std::size_t(c.d_inner()), n = std::size_t(c.d_state);
  std::vector<ParameterBlock> blocks;
  auto add = [&blocks](int layer, const char* block, std::size_t offset, std::size_t count, bool decays) {
    if (offset == kAbsent) return;
    const std::string name = layer < 0 ? block : "layer " + std::to_string(layer) + " " + block;
    blocks.push_back({name, block, layer, offset, count, decays});
  };
  add(-1, "embedding", layout.embedding, std::size_t(c.vocab) * dm, true);
  for (int l = 0; l < c.layers; ++l) {
    const LayerOffsets& o = layout.layers[std::size_t(l)];
    add(l, "norm", o.norm, dm, false);
    add(l, "in_proj", o.in_proj, 2 * di * dm, true);
    add(l, "conv_weight", o.conv_weight, di * std::size_t(c.conv_width), true);
    add(l, "conv_bias", o.conv_bias, di, false);
    add(l, "x_proj", o.x_proj, std::size_t(c.x_proj_rows()) * di, true);
    add(l, "dt_proj", o.dt_proj, di * std::size_t(c.dt_rank), true);
    add(l, "dt_bias", o.dt_bias, di, false);
    add(l, "A_log", o.A_log, di * n, false);
    add(l, "D", o.D, di, false);
    add(l, "B", o.B, di * n, false);
    add(l, "C", o.C, di * n, false);
    add(l, "out_proj", o.out_proj, dm * di, true);
  }
  add(-1, "final_norm", layout.final_norm, dm, false);
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
  for (int l = 0; l < c.layers; ++l) {
    const LayerOffsets& o = layout.layers[std::size_t(l)];
    fill(o.norm, dm, 1.0f);
    fill_uniform(o.in_proj, 2 * di * dm, 1.0 / std::sqrt(double(dm)), stream(l, 1));
    fill_uniform(o.conv_weight, di * std::size_t(c.conv_width), 1.0 / std::sqrt(double(c.conv_width)), stream(l, 2));
    fill_uniform(o.conv_bias, di, 1.0 / std::sqrt(double(c.conv_width)), stream(l, 3));
    if (o.x_proj != kAbsent) {
      fill_uniform(o.x_proj, std::size_t(c.x_proj_rows()) * di, 1.0 / std::sqrt(double(di)), stream(l, 4));
      fill_uniform(o.dt_proj, di * std::size_t(c.dt_rank), 1.0 / std::sqrt(double(c.dt_rank)), stream(l, 5));
    }
    // [snippet:dt_bias_init]
    // Δ starts log-uniform in [0.001, 0.1]: the bias is softplus's inverse of it, so that
    // softplus(0 + dt_bias) gives that Δ back when the input's contribution is zero.
    Stream s = stream(l, 6);
    for (std::size_t d = 0; d < di; ++d) {
      const double dt = std::max(1e-4, std::exp(std::log(1e-3) + s.uniform() * (std::log(1e-1) - std::log(1e-3))));
      p[o.dt_bias + d] = float(dt + std::log(-std::expm1(-dt)));  // log(e^dt - 1)
    }
    // [/snippet:dt_bias_init]
    for (std::size_t d = 0; d < di; ++d)
      for (std::size_t k = 0; k < n; ++k) p[o.A_log + d * n + k] = float(std::log(double(k + 1)));  // A = -(1..N)
    fill(o.D, di, 1.0f);
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

// The flat parameter layout and Mamba's initialization.
#include "ch09_test_support.hpp"
#include "cpu_training.hpp"

#include <cmath>

TEST_CASE("the parameter blocks tile the flat array in order, aligned, without overlap") {
  for (ch09::SsmKind kind : {ch09::SsmKind::selective, ch09::SsmKind::lti}) {
    ch09::ModelConfig c;  // the GPU run's shape
    c.kind = kind;
    REQUIRE(c.validate().empty());
    const ch09::ParameterLayout layout = ch09::parameter_layout(c);
    const std::vector<ch09::ParameterBlock> blocks = ch09::parameter_blocks(c);
    std::size_t end = 0, used = 0;
    for (const ch09::ParameterBlock& b : blocks) {
      INFO(b.name);
      CHECK(b.offset % 4 == 0);
      CHECK(b.offset >= end);
      CHECK(b.offset - end < 4);
      end = b.offset + b.count;
      used += b.count;
    }
    CHECK(layout.total >= end);
    CHECK(layout.total - end < 4);
    const std::size_t dm = 64, di = 128, n = 16;
    const std::size_t per_layer = dm + 2 * di * dm + di * 4 + di + di + di * n + di + dm * di +
                                  (kind == ch09::SsmKind::selective ? (4 + 2 * n) * di + di * 4 : 2 * di * n);
    CHECK(used == 16 * dm + 2 * per_layer + dm);
    CHECK((layout.layers[0].x_proj == ch09::kAbsent) == (kind == ch09::SsmKind::lti));
    CHECK((layout.layers[1].B == ch09::kAbsent) == (kind == ch09::SsmKind::selective));
  }
  ch09::ModelConfig bad;
  bad.d_state = 0;
  CHECK(bad.validate().find("d_state") != std::string::npos);
}

TEST_CASE("Mamba's initialization: A = -(1..N), D = 1, norms 1, dt in [0.001, 0.1], bounded matrices") {
  ch09::ModelConfig c;
  const std::vector<float> p = ch09::initial_parameters(c, 7);
  const ch09::ParameterLayout layout = ch09::parameter_layout(c);
  REQUIRE(p.size() == layout.total);
  for (const ch09::LayerOffsets& o : layout.layers) {
    for (int d = 0; d < c.d_inner(); ++d) {
      for (int n = 0; n < c.d_state; ++n) CHECK(std::exp(p[o.A_log + std::size_t(d * c.d_state + n)]) == Approx(n + 1));
      CHECK(p[o.D + std::size_t(d)] == 1.0f);
      const double dt = std::log1p(std::exp(double(p[o.dt_bias + std::size_t(d)])));
      CHECK(dt >= 0.999e-3);
      CHECK(dt <= 0.1001);
    }
    for (std::size_t i = 0; i < std::size_t(2 * c.d_inner() * c.d_model); ++i)
      CHECK(std::abs(p[o.in_proj + i]) <= 1.0f / std::sqrt(float(c.d_model)));
  }
  CHECK(p == ch09::initial_parameters(c, 7));
  CHECK(p != ch09::initial_parameters(c, 8));
  // The two kinds share the blocks they both have, value for value.
  ch09::ModelConfig lti = c;
  lti.kind = ch09::SsmKind::lti;
  const std::vector<float> q = ch09::initial_parameters(lti, 7);
  const ch09::ParameterLayout lq = ch09::parameter_layout(lti);
  for (std::size_t i = 0; i < std::size_t(c.d_model * c.d_inner()); ++i)
    CHECK(p[layout.layers[1].out_proj + i] == q[lq.layers[1].out_proj + i]);
  // Weight decay: the matrices only.
  const std::vector<float> mask = ch09::weight_decay_mask(c);
  CHECK(mask[layout.layers[0].in_proj] == 1.0f);
  CHECK(mask[layout.layers[0].A_log] == 0.0f);
  CHECK(mask[layout.layers[0].norm] == 0.0f);
}

TEST_CASE("AdamW's first step moves each parameter by lr against its gradient's sign, decay on matrices") {
  ch09::AdamWSettings s;
  s.weight_decay = 0.5;
  s.clip_norm = 0;
  std::vector<double> p = {1.0, 2.0, -3.0};
  const std::vector<float> mask = {1.0f, 0.0f, 1.0f};
  ch09::AdamWState state;
  ch09::adamw_step(s, 0.01, mask, p, {0.5, -2.0, 1e-3}, state);
  // First step: m̂ = g, v̂ = g², so the step is g/(|g| + eps) ≈ sign(g).
  CHECK(p[0] == Approx(1.0 - 0.01 * (1.0 + 0.5 * 1.0)).epsilon(1e-6));
  CHECK(p[1] == Approx(2.0 + 0.01).epsilon(1e-6));
  CHECK(p[2] == Approx(-3.0 - 0.01 * (1.0 - 0.5 * 3.0)).epsilon(1e-5));
  // Clipping scales the whole gradient to the clip norm and reports the norm before.
  s.clip_norm = 1.0;
  ch09::AdamWState fresh;
  std::vector<double> q = {0.0, 0.0};
  CHECK(ch09::adamw_step(s, 0.01, {0.0f, 0.0f}, q, {3.0, 4.0}, fresh) == Approx(5.0));
  CHECK(ch09::learning_rate(s, 0, 100) == Approx(s.lr));
  CHECK(ch09::learning_rate(s, 99, 100) == Approx(0.1 * s.lr));
}

#include "step_reference.hpp"

#include "softplus.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

namespace ch08_step {

StepResult reference_step(const StepProblem& p) {
  StepResult r;
  r.state = p.state;
  r.out.assign(std::size_t(p.channels()), std::numeric_limits<double>::quiet_NaN());
  r.skipped.assign(std::size_t(p.batch), false);
  const std::int64_t N = p.dstate, P = p.head_dim, heads_per_group = p.heads / p.groups;
  for (std::int64_t b = 0; b < p.batch; ++b) {
    std::int64_t slot = b;
    if (!p.indices.empty()) {
      const std::int32_t index = p.indices[std::size_t(b)];
      if (index == p.pad_slot || index < 0 || index >= p.slots) {
        r.skipped[std::size_t(b)] = true;
        continue;
      }
      slot = index;
    }
    for (std::int64_t h = 0; h < p.heads; ++h) {
      const std::int64_t g = h / heads_per_group;
      for (std::int64_t d = 0; d < P; ++d) {
        const std::size_t channel = std::size_t((b * p.heads + h) * P + d), weight = std::size_t(h * P + d);
        const double x = p.x[channel];
        double dt = p.dt[channel] + (p.dt_bias.empty() ? 0.0 : p.dt_bias[weight]);
        if (p.softplus) dt = common::softplus(dt);
        double y = 0;
        for (std::int64_t n = 0; n < N; ++n) {
          double& state = r.state[std::size_t(((slot * p.heads + h) * P + d) * N + n)];
          const std::size_t bn = std::size_t((b * p.groups + g) * N + n);
          state = std::exp(dt * p.A[weight * std::size_t(N) + std::size_t(n)]) * state + dt * p.B[bn] * x;
          y += p.C[bn] * state;
        }
        if (!p.D.empty()) y += p.D[weight] * x;
        if (!p.z.empty()) y *= p.z[channel] / (1 + std::exp(-p.z[channel]));
        r.out[channel] = y;
      }
    }
  }
  return r;
}

StepProblem make_step_problem(const StepShape& s, unsigned seed) {
  StepProblem p;
  p.batch = s.batch, p.heads = s.heads, p.head_dim = s.head_dim, p.dstate = s.dstate, p.groups = s.groups;
  p.softplus = s.softplus;
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal(0, 1);
  std::uniform_real_distribution<double> uniform(0, 1);
  const auto draw = [&](std::int64_t count, auto value) {
    std::vector<double> v(static_cast<std::size_t>(count));
    for (double& e : v) e = value();
    return v;
  };
  const auto gaussian = [&] { return normal(rng); };
  const auto step_size = [&] { return 0.5 * uniform(rng); };
  const auto decay_rate = [&] { return -(0.01 + 3.99 * uniform(rng)); };
  // Per head: one value a head (and sequence, for dt), repeated over the head's channels (and states).
  const auto per_head = [&](std::int64_t outer, std::int64_t repeat, auto value) {
    std::vector<double> v;
    for (std::int64_t i = 0; i < outer; ++i) v.insert(v.end(), std::size_t(repeat), value());
    return v;
  };
  const std::int64_t P = s.head_dim, N = s.dstate;
  p.x = draw(p.channels(), gaussian);
  p.dt = s.per_head ? per_head(s.batch * s.heads, P, step_size) : draw(p.channels(), step_size);
  if (s.has_z) p.z = draw(p.channels(), gaussian);
  p.A = s.per_head ? per_head(s.heads, P * N, decay_rate) : draw(s.heads * P * N, decay_rate);
  p.B = draw(s.batch * s.groups * N, gaussian);
  p.C = draw(s.batch * s.groups * N, gaussian);
  if (s.has_D) p.D = s.per_head ? per_head(s.heads, P, gaussian) : draw(s.heads * P, gaussian);
  if (s.has_dt_bias) p.dt_bias = s.per_head ? per_head(s.heads, P, step_size) : draw(s.heads * P, step_size);

  p.slots = s.slots == Slots::pool ? 2 * s.batch + 3 : s.batch;
  if (s.slots != Slots::own) {
    std::vector<std::int32_t> slots(std::size_t(p.slots));
    std::iota(slots.begin(), slots.end(), 0);
    std::shuffle(slots.begin(), slots.end(), rng);
    p.indices.assign(slots.begin(), slots.begin() + s.batch);
    if (s.slots == Slots::pool && s.batch >= 3) p.indices[1] = p.indices.back() = p.pad_slot;
  }
  p.state = draw(p.slots * s.heads * P * N, gaussian);
  return p;
}

}  // namespace ch08_step

#include "selective.hpp"

#include "diagonal.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

namespace zoh {

double SelectiveShape::bytes_moved() const {
  return 4.0 *
         (2.0 * double(count()) + double(tokens()) * channels + double(channels) * state + double(tokens()) * state);
}

SelectiveProblem random_selective_problem(SelectiveShape shape, std::uint64_t seed, double delta_min,
                                          double delta_max) {
  if (shape.batch < 1 || shape.length < 1 || shape.channels < 1 || shape.state < 1)
    throw std::invalid_argument("random_selective_problem: every dimension must be at least 1");
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  SelectiveProblem p{shape, std::vector<float>(shape.tokens() * shape.channels),
                     std::vector<float>(std::size_t(shape.channels) * shape.state),
                     std::vector<float>(shape.tokens() * shape.state)};
  const double log_min = std::log(delta_min), log_max = std::log(delta_max);
  for (float& v : p.delta) v = static_cast<float>(std::exp(log_min + (log_max - log_min) * unit(rng)));
  for (int d = 0; d < shape.channels; ++d)
    for (int n = 0; n < shape.state; ++n)
      p.A[std::size_t(d) * shape.state + n] = static_cast<float>(-(n + 1) * (0.5 + unit(rng)));
  for (float& v : p.B) v = static_cast<float>(normal(rng));
  return p;
}

// [snippet:reference]
SelectiveResult discretize_selective_reference(const SelectiveProblem& p, Rule rule, std::size_t tokens) {
  const auto& s = p.shape;
  tokens = std::min(tokens, s.tokens());
  const std::size_t D = s.channels, N = s.state;
  SelectiveResult r{std::vector<double>(tokens * D * N), std::vector<double>(tokens * D * N)};
  for (std::size_t t = 0; t < tokens; ++t)
    for (std::size_t d = 0; d < D; ++d) {
      const double delta = p.delta[t * D + d];
      for (std::size_t n = 0; n < N; ++n) {
        const double z = delta * double(p.A[d * N + n]);
        const double b = p.B[t * N + n];
        const std::size_t i = (t * D + d) * N + n;
        r.abar[i] = std::exp(z);
        r.bbar[i] = rule == Rule::zoh ? delta * phi1(z) * b : delta * b;
      }
    }
  return r;
}
// [/snippet:reference]

double max_abs_z(const SelectiveProblem& p) {
  const std::size_t D = p.shape.channels, N = p.shape.state;
  double delta_max = 0, a_max = 0;
  for (float v : p.delta) delta_max = std::max(delta_max, std::abs(double(v)));
  for (std::size_t i = 0; i < D * N; ++i) a_max = std::max(a_max, std::abs(double(p.A[i])));
  return delta_max * a_max;  // a bound: the largest Δ need not meet the largest |a|
}

common::Tolerance fp32_tolerance(double z_max) {
  const double u = std::ldexp(1.0, -24);  // fp32's unit roundoff
  // atol only keeps a result of exactly 0 (b = 0) from needing a relative comparison.
  return {1e-30, (6 + 2 * z_max) * u};
}

}  // namespace zoh

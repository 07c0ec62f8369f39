#include "ssd_problem.hpp"

#include "softplus.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

namespace ch10 {
namespace {

constexpr const char* kProblem = "ch10 SSD problem";

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(std::string(kProblem) + ": " + what);
}

void require_optional_size(const std::vector<double>& v, std::size_t expected, const char* name) {
  if (!v.empty()) require_size(kProblem, v, expected, name);
}

// A stream of its own per tensor, so that switching one option leaves the other tensors as they were.
class Draw {
 public:
  Draw(unsigned seed, unsigned tensor) {
    std::seed_seq sequence{seed, tensor};
    rng_.seed(sequence);
  }
  double normal() { return normal_(rng_); }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform_(rng_); }
  // log-uniform in [lo, hi]
  double log_uniform(double lo, double hi) { return std::exp(uniform(std::log(lo), std::log(hi))); }

 private:
  std::mt19937_64 rng_;
  std::normal_distribution<double> normal_{0.0, 1.0};
  std::uniform_real_distribution<double> uniform_{0.0, 1.0};
};

enum Tensor : unsigned { kX, kStep, kA, kB, kC, kD, kZ, kDtBias, kInitialStates };

std::vector<double> normals(std::size_t count, Draw draw) {
  std::vector<double> v(count);
  for (double& value : v) value = draw.normal();
  return v;
}

// The inverse of softplus: log(e^y − 1).
double softplus_inverse(double y) { return std::log(std::expm1(y)); }

constexpr double kStepLo = 1e-3, kStepHi = 0.1;

}  // namespace

void require_size(const char* who, const std::vector<double>& v, std::size_t expected, const char* name) {
  if (v.size() != expected)
    throw std::invalid_argument(std::string(who) + ": " + name + " has " + std::to_string(v.size()) +
                                " elements, expected " + std::to_string(expected));
}

void validate(const Problem& p) {
  const Shape& s = p.shape;
  require(s.batch >= 1 && s.seqlen >= 1 && s.heads >= 1 && s.head_dim >= 1 && s.groups >= 1 && s.dstate >= 1,
          "every size must be at least 1");
  require(s.heads % s.groups == 0,
          "heads (" + std::to_string(s.heads) + ") must be divisible by groups (" + std::to_string(s.groups) + ")");
  const Index at{s};
  require_size(kProblem, p.x, at.x_size(), "x");
  require_size(kProblem, p.dt, at.dt_size(), "dt");
  require_size(kProblem, p.A, std::size_t(s.heads), "A");
  require_size(kProblem, p.B, at.bc_size(), "B");
  require_size(kProblem, p.C, at.bc_size(), "C");
  require(p.D.empty() || p.D.size() == std::size_t(s.heads) || p.D.size() == std::size_t(s.heads) * s.head_dim,
          "D has " + std::to_string(p.D.size()) + " elements, expected heads or heads * head_dim");
  require_optional_size(p.z, at.x_size(), "z");
  require_optional_size(p.dt_bias, std::size_t(s.heads), "dt_bias");
  require_optional_size(p.initial_states, at.state_size(), "initial_states");
  require(p.dt_limit.lo <= p.dt_limit.hi, "dt_limit's lower end is above its upper end");
  if (!p.seq_idx.empty()) {
    require(p.seq_idx.size() == std::size_t(s.batch * s.seqlen),
            "seq_idx has " + std::to_string(p.seq_idx.size()) + " elements, expected batch * seqlen");
    for (std::int64_t b = 0; b < s.batch; ++b)
      for (std::int64_t t = 0; t < s.seqlen; ++t) {
        const std::int64_t here = p.seq_idx[at.seq(b, t)];
        require(here >= 0, "seq_idx holds a negative number at b=" + std::to_string(b) + ", t=" + std::to_string(t));
        require(t == 0 || here >= p.seq_idx[at.seq(b, t - 1)],
                "seq_idx decreases at b=" + std::to_string(b) + ", t=" + std::to_string(t));
      }
  }
}

double skip_weight(const Problem& p, int h, int i) {
  if (p.D.empty()) return 0.0;
  return p.D.size() == std::size_t(p.shape.heads) ? p.D[std::size_t(h)]
                                                  : p.D[std::size_t(h) * p.shape.head_dim + std::size_t(i)];
}

std::vector<double> step_sizes(const Problem& p) {
  const Index at{p.shape};
  std::vector<double> steps(p.dt.size());
  for (std::int64_t b = 0; b < p.shape.batch; ++b)
    for (std::int64_t t = 0; t < p.shape.seqlen; ++t)
      for (int h = 0; h < p.shape.heads; ++h) {
        const std::size_t e = at.dt(b, t, h);
        const double v = p.dt[e] + (p.dt_bias.empty() ? 0.0 : p.dt_bias[std::size_t(h)]);
        steps[e] = std::clamp(p.dt_softplus ? common::softplus(v) : v, p.dt_limit.lo, p.dt_limit.hi);
      }
  return steps;
}

std::int64_t sequence_number(const Problem& p, std::int64_t b, std::int64_t t) {
  if (p.seq_idx.empty() || t < 0) return 0;
  return p.seq_idx[Index{p.shape}.seq(b, t)];
}

bool carries_state(const Problem& p, std::int64_t b, std::int64_t t) {
  return sequence_number(p, b, t) == sequence_number(p, b, t - 1);
}

double silu(double v) { return v / (1.0 + std::exp(-v)); }

double gated(const Problem& p, std::size_t e, double u) { return p.z.empty() ? u : u * silu(p.z[e]); }

std::vector<std::int64_t> packed_seq_idx(const std::vector<std::vector<std::int64_t>>& lengths, std::int64_t seqlen) {
  std::vector<std::int64_t> seq_idx;
  for (std::size_t row = 0; row < lengths.size(); ++row) {
    std::int64_t total = 0;
    for (std::size_t s = 0; s < lengths[row].size(); ++s) {
      require(lengths[row][s] >= 1, "a packed sequence must be at least one position long");
      seq_idx.insert(seq_idx.end(), std::size_t(lengths[row][s]), std::int64_t(s));
      total += lengths[row][s];
    }
    require(total == seqlen, "row " + std::to_string(row) + "'s sequences add up to " + std::to_string(total) +
                                 " positions, not seqlen " + std::to_string(seqlen));
  }
  return seq_idx;
}

Problem make_problem(const ProblemSpec& spec, unsigned seed) {
  Problem p;
  p.shape = spec.shape;
  const Shape& s = spec.shape;
  require(s.groups >= 1 && s.heads % s.groups == 0, "heads must be divisible by groups");
  require(spec.packing.empty() || spec.packing.size() == std::size_t(s.batch), "packing needs one row per batch row");
  const Index at{s};
  p.dt_softplus = spec.dt_softplus;
  p.dt_limit = spec.dt_limit;

  p.x = normals(at.x_size(), Draw(seed, kX));
  p.B = normals(at.bc_size(), Draw(seed, kB));
  p.C = normals(at.bc_size(), Draw(seed, kC));
  if (spec.z) p.z = normals(at.x_size(), Draw(seed, kZ));
  if (spec.D == DForm::per_head) p.D = normals(std::size_t(s.heads), Draw(seed, kD));
  if (spec.D == DForm::per_channel) p.D = normals(std::size_t(s.heads) * s.head_dim, Draw(seed, kD));
  if (spec.initial_states) p.initial_states = normals(at.state_size(), Draw(seed, kInitialStates));

  Draw a(seed, kA);
  for (int h = 0; h < s.heads; ++h) p.A.push_back(-a.uniform(1.0, 16.0));

  // dt_bias holds a step size of its own (through softplus's inverse when softplus is on); dt is
  // then whatever gives the drawn dt' back.
  if (spec.dt_bias) {
    Draw bias(seed, kDtBias);
    for (int h = 0; h < s.heads; ++h) {
      const double step = bias.log_uniform(kStepLo, kStepHi);
      p.dt_bias.push_back(spec.dt_softplus ? softplus_inverse(step) : step);
    }
  }
  Draw step(seed, kStep);
  p.dt.resize(at.dt_size());
  for (std::int64_t b = 0; b < s.batch; ++b)
    for (std::int64_t t = 0; t < s.seqlen; ++t)
      for (int h = 0; h < s.heads; ++h) {
        const double target = step.log_uniform(kStepLo, kStepHi);
        const double bias = p.dt_bias.empty() ? 0.0 : p.dt_bias[std::size_t(h)];
        p.dt[at.dt(b, t, h)] = (spec.dt_softplus ? softplus_inverse(target) : target) - bias;
      }

  if (!spec.packing.empty()) p.seq_idx = packed_seq_idx(spec.packing, s.seqlen);
  return p;
}

}  // namespace ch10

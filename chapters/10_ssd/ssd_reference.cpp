#include "ssd_reference.hpp"

#include "decay_row.hpp"

#include <cmath>
#include <vector>

namespace ch10 {
namespace {

// The state of one (b, h) before position 0: the initial states, or zero.
std::vector<double> state_before_start(const Problem& p, std::int64_t b, int h) {
  const Index at{p.shape};
  const int P = p.shape.head_dim, N = p.shape.dstate;
  std::vector<double> S(std::size_t(P) * N, 0.0);
  if (!p.initial_states.empty())
    for (int i = 0; i < P; ++i)
      for (int k = 0; k < N; ++k) S[std::size_t(i) * N + k] = p.initial_states[at.state(b, h, i, k)];
  return S;
}

double dot(const double* a, const double* b, int n) {
  double sum = 0.0;
  for (int k = 0; k < n; ++k) sum += a[k] * b[k];
  return sum;
}

}  // namespace

// [snippet:ssd_recurrence]
Forward ssd_recurrence(const Problem& p) {
  validate(p);
  const Shape& s = p.shape;
  const Index at{s};
  const int P = s.head_dim, N = s.dstate;
  const std::vector<double> steps = step_sizes(p);
  Forward f{std::vector<double>(at.x_size()), std::vector<double>(at.state_size())};
  for (std::int64_t b = 0; b < s.batch; ++b)
    for (int h = 0; h < s.heads; ++h) {
      const int g = at.group(h);
      std::vector<double> S = state_before_start(p, b, h);  // (head_dim, dstate)
      for (std::int64_t t = 0; t < s.seqlen; ++t) {
        const double dt = steps[at.dt(b, t, h)];
        const double decay = carries_state(p, b, t) ? std::exp(dt * p.A[std::size_t(h)]) : 0.0;
        const double* B = &p.B[at.bc(b, t, g, 0)];
        const double* C = &p.C[at.bc(b, t, g, 0)];
        for (int i = 0; i < P; ++i) {
          const std::size_t e = at.x(b, t, h, i);
          double* row = &S[std::size_t(i) * N];
          for (int k = 0; k < N; ++k) row[k] = decay * row[k] + dt * p.x[e] * B[k];
          f.y[e] = gated(p, e, dot(row, C, N) + skip_weight(p, h, i) * p.x[e]);
        }
      }
      for (int i = 0; i < P; ++i)
        for (int k = 0; k < N; ++k) f.final_states[at.state(b, h, i, k)] = S[std::size_t(i) * N + k];
    }
  return f;
}
// [/snippet:ssd_recurrence]

// [snippet:ssd_quadratic]
Forward ssd_quadratic(const Problem& p) {
  validate(p);
  const Shape& s = p.shape;
  const Index at{s};
  const int P = s.head_dim, N = s.dstate;
  const std::vector<double> steps = step_sizes(p);
  Forward f{std::vector<double>(at.x_size()), std::vector<double>(at.state_size())};
  for (std::int64_t b = 0; b < s.batch; ++b)
    for (int h = 0; h < s.heads; ++h) {
      const int g = at.group(h);
      const std::vector<double> h0 = state_before_start(p, b, h);
      // y_t = Σ_s Λ[t][s] (C_t · B_s) dt'_s x_s + Λ0[t] C_t · h0 + D x_t: row t of a masked,
      // decayed "attention" matrix applied to dt'·x.
      for (std::int64_t t = 0; t < s.seqlen; ++t) {
        const DecayRow row = decay_row(p, steps, b, h, t);
        const double* C = &p.C[at.bc(b, t, g, 0)];
        std::vector<double> u(std::size_t(P), 0.0);
        for (std::int64_t src = 0; src <= t; ++src) {
          const double w =
              row.weights[std::size_t(src)] * dot(C, &p.B[at.bc(b, src, g, 0)], N) * steps[at.dt(b, src, h)];
          for (int i = 0; i < P; ++i) u[std::size_t(i)] += w * p.x[at.x(b, src, h, i)];
        }
        for (int i = 0; i < P; ++i) {
          const std::size_t e = at.x(b, t, h, i);
          const double from_h0 = row.initial * dot(C, &h0[std::size_t(i) * N], N);
          f.y[e] = gated(p, e, u[std::size_t(i)] + from_h0 + skip_weight(p, h, i) * p.x[e]);
        }
      }
      // The final states: the last row of Λ applied to the outer products dt'_s x_s B_sᵀ.
      const DecayRow last = decay_row(p, steps, b, h, s.seqlen - 1);
      for (int i = 0; i < P; ++i)
        for (int k = 0; k < N; ++k) {
          double state = last.initial * h0[std::size_t(i) * N + k];
          for (std::int64_t src = 0; src < s.seqlen; ++src)
            state += last.weights[std::size_t(src)] * steps[at.dt(b, src, h)] * p.x[at.x(b, src, h, i)] *
                     p.B[at.bc(b, src, g, k)];
          f.final_states[at.state(b, h, i, k)] = state;
        }
    }
  return f;
}
// [/snippet:ssd_quadratic]

}  // namespace ch10

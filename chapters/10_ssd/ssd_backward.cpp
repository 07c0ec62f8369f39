#include "ssd_backward.hpp"

#include "softplus.hpp"
#include "ssd_reference.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace ch10 {
namespace {

double sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }

}  // namespace

// d/dv (v σ(v)) = σ(v) (1 + v (1 − σ(v))).
double silu_slope(double v) { return sigmoid(v) * (1.0 + v * (1.0 - sigmoid(v))); }

// Zero where the clamp cut (strictly outside [lo, hi], as the official kernel masks it), times
// softplus's slope σ(v) below its cut at v = 20.
double raw_step_gradient(const Problem& p, double ddt_step, double raw, int h) {
  const double v = raw + (p.dt_bias.empty() ? 0.0 : p.dt_bias[std::size_t(h)]);
  const double activated = p.dt_softplus ? common::softplus(v) : v;
  if (activated < p.dt_limit.lo || activated > p.dt_limit.hi) return 0.0;
  return p.dt_softplus && v <= 20.0 ? ddt_step * sigmoid(v) : ddt_step;
}

// [snippet:ssd_backward]
Gradients ssd_backward(const Problem& p, const std::vector<double>& dy, const std::vector<double>& dfinal_states) {
  validate(p);
  const Shape& s = p.shape;
  const Index at{s};
  const int P = s.head_dim, N = s.dstate;
  const std::size_t PN = std::size_t(P) * N;
  require_size("ch10 SSD backward", dy, at.x_size(), "dy");
  if (!dfinal_states.empty()) require_size("ch10 SSD backward", dfinal_states, at.state_size(), "dfinal_states");
  const bool D_per_head = p.D.size() == std::size_t(s.heads);

  Gradients grad;
  grad.dx.assign(at.x_size(), 0.0);
  grad.ddt.assign(at.dt_size(), 0.0);
  grad.dA.assign(std::size_t(s.heads), 0.0);
  grad.dB.assign(at.bc_size(), 0.0);
  grad.dC.assign(at.bc_size(), 0.0);
  grad.dD.assign(p.D.size(), 0.0);
  grad.dz.assign(p.z.size(), 0.0);
  grad.ddt_bias.assign(p.dt_bias.size(), 0.0);
  grad.dinitial_states.assign(p.initial_states.size(), 0.0);

  const std::vector<double> steps = step_sizes(p);
  std::vector<double> ddt_step(at.dt_size(), 0.0);  // ∂L/∂dt'
  for (std::int64_t b = 0; b < s.batch; ++b)
    for (int h = 0; h < s.heads; ++h) {
      const int g = at.group(h);
      const double A = p.A[std::size_t(h)];
      // The forward again, keeping every state: S[(t + 1)·PN + ...] = S_t, S[0...] = S_{−1}.
      std::vector<double> S((std::size_t(s.seqlen) + 1) * PN, 0.0);
      if (!p.initial_states.empty())
        for (int i = 0; i < P; ++i)
          for (int k = 0; k < N; ++k) S[std::size_t(i) * N + k] = p.initial_states[at.state(b, h, i, k)];
      for (std::int64_t t = 0; t < s.seqlen; ++t) {
        const double dt = steps[at.dt(b, t, h)];
        const double decay = carries_state(p, b, t) ? std::exp(dt * A) : 0.0;
        const double* before = &S[std::size_t(t) * PN];
        double* after = &S[std::size_t(t + 1) * PN];
        for (int i = 0; i < P; ++i)
          for (int k = 0; k < N; ++k)
            after[std::size_t(i) * N + k] =
                decay * before[std::size_t(i) * N + k] + dt * p.x[at.x(b, t, h, i)] * p.B[at.bc(b, t, g, k)];
      }

      // The reverse scan: G = ∂L/∂S_t, taken from S_{t+1} back to S_t by the transposed decay.
      std::vector<double> G(PN, 0.0);
      if (!dfinal_states.empty())
        for (int i = 0; i < P; ++i)
          for (int k = 0; k < N; ++k) G[std::size_t(i) * N + k] = dfinal_states[at.state(b, h, i, k)];
      std::vector<double> du(static_cast<std::size_t>(P));
      for (std::int64_t t = s.seqlen - 1; t >= 0; --t) {
        const double dt = steps[at.dt(b, t, h)];
        const double decay = carries_state(p, b, t) ? std::exp(dt * A) : 0.0;
        const double* before = &S[std::size_t(t) * PN];
        const double* state = &S[std::size_t(t + 1) * PN];
        const double* B = &p.B[at.bc(b, t, g, 0)];
        const double* C = &p.C[at.bc(b, t, g, 0)];
        // Through the gate and the skip: u_t = S_t C_t + D x_t, y_t = u_t silu(z_t).
        for (int i = 0; i < P; ++i) {
          const std::size_t e = at.x(b, t, h, i);
          double u = skip_weight(p, h, i) * p.x[e];
          for (int k = 0; k < N; ++k) u += state[std::size_t(i) * N + k] * C[k];
          du[std::size_t(i)] = p.z.empty() ? dy[e] : dy[e] * silu(p.z[e]);
          if (!p.z.empty()) grad.dz[e] = dy[e] * u * silu_slope(p.z[e]);
          grad.dx[e] += skip_weight(p, h, i) * du[std::size_t(i)];
          if (!p.D.empty())
            grad.dD[D_per_head ? std::size_t(h) : std::size_t(h) * P + i] += du[std::size_t(i)] * p.x[e];
        }
        for (int i = 0; i < P; ++i)
          for (int k = 0; k < N; ++k) {
            grad.dC[at.bc(b, t, g, k)] += du[std::size_t(i)] * state[std::size_t(i) * N + k];
            G[std::size_t(i) * N + k] += du[std::size_t(i)] * C[k];
          }
        // Through S_t = decay·S_{t−1} + dt'·x_t B_tᵀ.
        double through_input = 0.0, through_decay = 0.0;  // Σ G ∘ x Bᵀ and Σ G ∘ S_{t−1}
        for (int i = 0; i < P; ++i) {
          const std::size_t e = at.x(b, t, h, i);
          double GB = 0.0;
          for (int k = 0; k < N; ++k) {
            const double Gik = G[std::size_t(i) * N + k];
            GB += Gik * B[k];
            grad.dB[at.bc(b, t, g, k)] += dt * Gik * p.x[e];
            through_decay += Gik * before[std::size_t(i) * N + k];
          }
          grad.dx[e] += dt * GB;
          through_input += GB * p.x[e];
        }
        // decay = exp(dt' A): ∂decay/∂dt' = A·decay, ∂decay/∂A = dt'·decay.
        ddt_step[at.dt(b, t, h)] = through_input + through_decay * decay * A;
        grad.dA[std::size_t(h)] += through_decay * decay * dt;
        for (double& Gik : G) Gik *= decay;
      }
      if (!p.initial_states.empty())
        for (int i = 0; i < P; ++i)
          for (int k = 0; k < N; ++k) grad.dinitial_states[at.state(b, h, i, k)] = G[std::size_t(i) * N + k];
    }

  for (std::int64_t b = 0; b < s.batch; ++b)
    for (std::int64_t t = 0; t < s.seqlen; ++t)
      for (int h = 0; h < s.heads; ++h) {
        const std::size_t e = at.dt(b, t, h);
        grad.ddt[e] = raw_step_gradient(p, ddt_step[e], p.dt[e], h);
        if (!p.dt_bias.empty()) grad.ddt_bias[std::size_t(h)] += grad.ddt[e];
      }
  return grad;
}
// [/snippet:ssd_backward]

double ssd_loss(const Problem& p, const std::vector<double>& dy, const std::vector<double>& dfinal_states) {
  const Forward f = ssd_recurrence(p);
  require_size("ch10 SSD backward", dy, f.y.size(), "dy");
  double loss = 0.0;
  for (std::size_t e = 0; e < dy.size(); ++e) loss += dy[e] * f.y[e];
  if (!dfinal_states.empty()) {
    require_size("ch10 SSD backward", dfinal_states, f.final_states.size(), "dfinal_states");
    for (std::size_t e = 0; e < dfinal_states.size(); ++e) loss += dfinal_states[e] * f.final_states[e];
  }
  return loss;
}

}  // namespace ch10

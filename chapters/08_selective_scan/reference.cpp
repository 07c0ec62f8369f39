#include "reference.hpp"

#include "softplus.hpp"

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

namespace ch08 {
namespace {

// Every index below: sequences (b, d, t), A and constant B/C (d, n), variable B/C (b, g, n, t),
// states (q, d, n) with q the batch row or the packed sequence. All row-major, the last letter
// fastest.
struct Index {
  const Problem& p;
  std::size_t sequence(std::int64_t b, std::int64_t d, std::int64_t t) const {
    return std::size_t((b * p.dim + d) * p.seqlen + t);
  }
  std::size_t weight(std::int64_t d, int n) const { return std::size_t(d * p.dstate + n); }
  std::size_t state(std::int64_t q, std::int64_t d, int n) const { return std::size_t((q * p.dim + d) * p.dstate + n); }
  // Channel d reads group d / (dim / groups) of a variable B or C.
  std::size_t projection(bool variable, std::int64_t b, std::int64_t d, int n, std::int64_t t) const {
    if (!variable) return weight(d, n);
    const std::int64_t g = d / (p.dim / p.groups);
    return std::size_t(((b * p.groups + g) * p.dstate + n) * p.seqlen + t);
  }
};

std::size_t projection_size(const Problem& p, bool variable) {
  return std::size_t(variable ? p.batch * p.groups * p.dstate * p.seqlen : p.dim * p.dstate);
}

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("ch08 reference: " + what);
}

void require_size(std::size_t got, std::size_t expected, const char* name) {
  require(got == expected,
          std::string(name) + " has " + std::to_string(got) + " elements, expected " + std::to_string(expected));
}

// The sequences of batch row b, as [begin, end) ranges of steps with the index q of their states.
struct Sequence {
  std::int64_t q, begin, end;
};
std::vector<Sequence> sequences_of(const Problem& p, std::int64_t b) {
  if (p.cu_seqlens.empty()) return {{b, 0, p.seqlen}};
  std::vector<Sequence> out;
  for (std::size_t q = 0; q + 1 < p.cu_seqlens.size(); ++q)
    out.push_back({std::int64_t(q), p.cu_seqlens[q], p.cu_seqlens[q + 1]});
  return out;
}

void check_problem(const Problem& p) {
  require(p.batch >= 1 && p.dim >= 1 && p.seqlen >= 1 && p.dstate >= 1, "every size must be at least 1");
  if (!p.cu_seqlens.empty()) {
    require(p.batch == 1, "packed sequences (cu_seqlens) need batch 1");
    require(p.cu_seqlens.size() >= 2 && p.cu_seqlens.front() == 0 && p.cu_seqlens.back() == p.seqlen,
            "cu_seqlens must run from 0 to seqlen");
    for (std::size_t q = 0; q + 1 < p.cu_seqlens.size(); ++q)
      require(p.cu_seqlens[q] < p.cu_seqlens[q + 1], "cu_seqlens must increase: every sequence has a step");
  }
  require(p.groups >= 1 && p.dim % p.groups == 0, "dim must be divisible by groups");
  const std::size_t sequence = std::size_t(p.sequence_elements());
  const std::size_t channels = std::size_t(p.dim);
  require_size(p.u.size(), sequence, "u");
  require_size(p.delta.size(), sequence, "delta");
  require_size(p.z.size(), p.has_z ? sequence : 0, "z");
  require_size(p.A.size(), channels * p.dstate, "A");
  require_size(p.B.size(), projection_size(p, p.variable_B), "B");
  require_size(p.C.size(), projection_size(p, p.variable_C), "C");
  require_size(p.D.size(), p.has_D ? channels : 0, "D");
  require_size(p.delta_bias.size(), p.has_delta_bias ? channels : 0, "delta_bias");
  require_size(p.initial_state.size(), p.has_initial_state ? std::size_t(p.sequences()) * channels * p.dstate : 0,
               "initial_state");
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
using common::softplus;
double silu(double x) { return x * sigmoid(x); }
// d/dx (x σ(x)) = σ(x) + x σ(x)(1 − σ(x)).
double silu_slope(double x) { return sigmoid(x) * (1.0 + x * (1.0 - sigmoid(x))); }

// Complex A: the output takes 2 Re(Σ C h), as the official kernel does (the conjugate half of
// the states is implied). Real A: every imaginary part is zero and y = Re(Σ C h) = Σ C h.
double output_scale(const Problem& p) { return p.complex ? 2.0 : 1.0; }

// δ before softplus: delta_raw + delta_bias[d].
double pre_activation(const Problem& p, std::size_t i, std::int64_t d) {
  return p.delta[i] + (p.has_delta_bias ? p.delta_bias[std::size_t(d)] : 0.0);
}

// [snippet:forward_recurrence]
// The step size of (b, d, t): δ = softplus(delta_raw + delta_bias) or, without softplus, the sum.
double step_size(const Problem& p, std::size_t i, std::int64_t d) {
  const double x = pre_activation(p, i, d);
  return p.delta_softplus ? softplus(x) : x;
}

// The state h_{−1} that sequence q of channel d starts from: its initial state, or 0.
Complex start_state(const Problem& p, std::int64_t q, std::int64_t d, int n) {
  return p.has_initial_state ? p.initial_state[Index{p}.state(q, d, n)] : Complex(0);
}

// The states of channel (b, d) after every step: h[t * dstate + n] = h_t[n]. Every state n is
// its own scalar recurrence h_t = Ā_t h_{t−1} + δ_t B_t u_t with Ā_t = exp(δ_t A), which starts
// again from its sequence's own start state where a packed sequence begins.
std::vector<Complex> channel_states(const Problem& p, std::int64_t b, std::int64_t d) {
  const Index at{p};
  const int N = p.dstate;
  std::vector<Complex> h(std::size_t(p.seqlen) * N);
  for (const Sequence& s : sequences_of(p, b))
    for (int n = 0; n < N; ++n) {
      Complex state = start_state(p, s.q, d, n);
      for (std::int64_t t = s.begin; t < s.end; ++t) {
        const std::size_t i = at.sequence(b, d, t);
        const double delta = step_size(p, i, d);
        const Complex A_bar = std::exp(delta * p.A[at.weight(d, n)]);
        state = A_bar * state + delta * p.B[at.projection(p.variable_B, b, d, n, t)] * p.u[i];
        h[std::size_t(t) * N + n] = state;
      }
    }
  return h;
}

// y_t = scale · Re(Σ_n C_t[n] h_t[n]) + D u_t, before the gate.
double output(const Problem& p, const std::vector<Complex>& h, std::int64_t b, std::int64_t d, std::int64_t t) {
  const Index at{p};
  Complex contraction = 0;
  for (int n = 0; n < p.dstate; ++n)
    contraction += p.C[at.projection(p.variable_C, b, d, n, t)] * h[std::size_t(t) * p.dstate + n];
  const double skip = p.has_D ? p.D[std::size_t(d)] * p.u[at.sequence(b, d, t)] : 0.0;
  return output_scale(p) * contraction.real() + skip;
}
// [/snippet:forward_recurrence]

std::vector<double> final_output(const Problem& p, const ForwardResult& r) { return p.has_z ? r.out_z : r.out; }

// Draws from a stream of its own per tensor, so that switching a flag (say has_z) leaves every
// other tensor of the same seed as it was.
class Draw {
 public:
  Draw(unsigned seed, unsigned tensor) {
    std::seed_seq sequence{seed, tensor};
    rng_.seed(sequence);
  }
  double normal() { return normal_(rng_); }
  double uniform() { return uniform_(rng_); }

 private:
  std::mt19937_64 rng_;
  std::normal_distribution<double> normal_{0.0, 1.0};
  std::uniform_real_distribution<double> uniform_{0.0, 1.0};
};

enum Tensor : unsigned { kU, kDelta, kZ, kA, kB, kC, kD, kDeltaBias, kInitialState };

std::vector<double> reals(std::size_t count, Draw draw, double (*value)(Draw&)) {
  std::vector<double> v(count);
  for (double& x : v) x = value(draw);
  return v;
}

// A complex draw takes both parts from `value`; a real one leaves the imaginary part zero.
std::vector<Complex> complexes(std::size_t count, bool complex, Draw draw, double (*value)(Draw&)) {
  std::vector<Complex> v(count);
  for (Complex& x : v) {
    const double re = value(draw);
    x = Complex(re, complex ? value(draw) : 0.0);
  }
  return v;
}

double standard_normal(Draw& d) { return d.normal(); }
double half_uniform(Draw& d) { return 0.5 * d.uniform(); }
double negative_half_uniform(Draw& d) { return -0.5 * d.uniform(); }

}  // namespace

Problem make_official_test_problem(const Problem& shape, unsigned seed) {
  Problem p = shape;
  require(p.groups >= 1 && p.dim % p.groups == 0, "dim must be divisible by groups");
  const std::size_t sequence = std::size_t(p.sequence_elements());
  const std::size_t channels = std::size_t(p.dim);
  p.u = reals(sequence, Draw(seed, kU), standard_normal);
  p.delta = reals(sequence, Draw(seed, kDelta), half_uniform);
  p.z = p.has_z ? reals(sequence, Draw(seed, kZ), standard_normal) : std::vector<double>{};
  p.A = complexes(channels * p.dstate, p.complex, Draw(seed, kA), negative_half_uniform);
  p.B = complexes(projection_size(p, p.variable_B), p.complex, Draw(seed, kB), standard_normal);
  p.C = complexes(projection_size(p, p.variable_C), p.complex, Draw(seed, kC), standard_normal);
  p.D = p.has_D ? reals(channels, Draw(seed, kD), standard_normal) : std::vector<double>{};
  p.delta_bias = p.has_delta_bias ? reals(channels, Draw(seed, kDeltaBias), half_uniform) : std::vector<double>{};
  p.initial_state = p.has_initial_state ? complexes(std::size_t(p.sequences()) * channels * p.dstate, p.complex,
                                                    Draw(seed, kInitialState), standard_normal)
                                        : std::vector<Complex>{};
  return p;
}

ForwardResult reference_forward(const Problem& p) {
  check_problem(p);
  const Index at{p};
  const int N = p.dstate;
  ForwardResult r;
  r.out.resize(std::size_t(p.sequence_elements()));
  if (p.has_z) r.out_z.resize(r.out.size());
  r.last_state.resize(std::size_t(p.sequences() * p.dim) * N);
  for (std::int64_t b = 0; b < p.batch; ++b)
    for (std::int64_t d = 0; d < p.dim; ++d) {
      const std::vector<Complex> h = channel_states(p, b, d);
      for (std::int64_t t = 0; t < p.seqlen; ++t) {
        const std::size_t i = at.sequence(b, d, t);
        r.out[i] = output(p, h, b, d, t);
        if (p.has_z) r.out_z[i] = r.out[i] * silu(p.z[i]);
      }
      for (const Sequence& s : sequences_of(p, b))
        for (int n = 0; n < N; ++n) r.last_state[at.state(s.q, d, n)] = h[std::size_t(s.end - 1) * N + n];
    }
  return r;
}

// The backward, derived for the loss L = Σ dout · out_final (any loss looks like this to first
// order, with dout its gradient). For a complex quantity w the gradient is
// G_w = ∂L/∂Re(w) + i ∂L/∂Im(w). Two rules carry everything:
//   - w = a·v with a fixed (or any holomorphic w = f(v), a = f'(v)):  G_v += conj(a) G_w;
//   - a real r that enters as w = a·r:                                ∂L/∂r += Re(conj(a) G_w).
// (Real A: every imaginary part is zero, the conjugates do nothing, and these are the usual
// real chain rule.)
//
// Output. out_final = y·silu(z) (or y), so dy_t = dout_t·silu(z_t) (or dout_t) and
// dz_t = dout_t·y_t·silu'(z_t). y_t = s·Re(Σ_n C_t h_t) + D u_t with s = 2 (complex) or 1: a
// real linear map of the product C_t h_t, so G_{C_t h_t} = s·dy_t, hence
//   dC_t += s·dy_t·conj(h_t),   the direct part of G_{h_t} is s·dy_t·conj(C_t),
//   dD += dy_t·u_t,             du_t += D·dy_t.
// Recurrence. h_t = Ā_t h_{t−1} + δ_t B_t u_t: h_t reaches L directly and through h_{t+1}, so
//   g_t = s·dy_t·conj(C_t) + conj(Ā_{t+1}) g_{t+1},   g_L = 0,
// a linear recurrence run backward in time (chapter 07's reverse scan, with conjugates). The
// loop carries q_t = conj(Ā_t) g_t, what step t hands back to h_{t−1} (reverse_step). Then
//   G_{Ā_t} = conj(h_{t−1}) g_t,          dinitial_state = conj(Ā_0) g_0 (h_{−1} = initial state),
//   dB_t += δ_t u_t g_t,                  du_t += Re(conj(δ_t B_t) g_t),
//   dA += conj(δ_t Ā_t) G_{Ā_t}           (Ā = exp(δ A), ∂Ā/∂A = δ Ā),
//   dδ_t = Σ_n Re(conj(A Ā_t) G_{Ā_t}) + Re(conj(B_t u_t) g_t)   (∂Ā/∂δ = A Ā).
// Packed sequences: each runs this backward on its own steps, from its own dlast_state (or 0),
// with its own start state as h_{−1}, and hands its q at its first step to its own dinitial_state.
// Variable B, C sum dB, dC over the channels of a group; constant ones over batch and time.
// Step size. δ = softplus(x) with x = delta_raw + delta_bias: ddelta = dδ·σ(x) (dδ when x > 20,
// where softplus(x) = x, or without softplus: step_size_gradient); ddelta_bias sums ddelta over batch and time.
// The reference keeps every h_t of one channel (channel_states); the GPU backward recomputes
// them from the chunk states instead.
Gradients reference_backward(const Problem& p, const std::vector<double>& dout,
                             const std::vector<Complex>& dlast_state) {
  check_problem(p);
  require_size(dout.size(), std::size_t(p.sequence_elements()), "dout");
  if (!dlast_state.empty())
    require_size(dlast_state.size(), std::size_t(p.sequences() * p.dim * p.dstate), "dlast_state");
  const Index at{p};
  const int N = p.dstate;
  const double s = output_scale(p);
  const ForwardResult forward = reference_forward(p);

  Gradients grad;
  grad.du.assign(dout.size(), 0.0);
  grad.ddelta.assign(dout.size(), 0.0);
  if (p.has_z) grad.dz.assign(dout.size(), 0.0);
  grad.dA.assign(p.A.size(), 0.0);
  grad.dA_terms.assign(p.A.size(), 0.0);
  grad.dB.assign(p.B.size(), 0.0);
  grad.dC.assign(p.C.size(), 0.0);
  if (p.has_D) grad.dD.assign(p.D.size(), 0.0);
  if (p.has_delta_bias) grad.ddelta_bias.assign(p.delta_bias.size(), 0.0);
  if (p.has_initial_state) grad.dinitial_state.assign(p.initial_state.size(), 0.0);

  for (std::int64_t b = 0; b < p.batch; ++b)
    for (std::int64_t d = 0; d < p.dim; ++d) {
      const std::vector<Complex> h = channel_states(p, b, d);
      // dy_t, and the gate's gradient.
      std::vector<double> dy(std::size_t(p.seqlen));
      for (std::int64_t t = 0; t < p.seqlen; ++t) {
        const std::size_t i = at.sequence(b, d, t);
        dy[std::size_t(t)] = p.has_z ? dout[i] * silu(p.z[i]) : dout[i];
        if (p.has_z) grad.dz[i] = dout[i] * forward.out[i] * silu_slope(p.z[i]);
        if (p.has_D) {
          grad.du[i] += p.D[std::size_t(d)] * dy[std::size_t(t)];
          grad.dD[std::size_t(d)] += dy[std::size_t(t)] * p.u[i];
        }
      }
      // [snippet:backward_recurrence]
      for (const Sequence& seq : sequences_of(p, b))
        for (int n = 0; n < N; ++n) {
          const Complex A = p.A[at.weight(d, n)];
          // q_{t+1} = conj(Ā_{t+1}) g_{t+1}: what flows into h_t from the later steps; after the
          // sequence's last step, from whatever reads its last state (a later call's dinitial_state).
          Complex q = dlast_state.empty() ? Complex(0) : dlast_state[at.state(seq.q, d, n)];
          for (std::int64_t t = seq.end - 1; t >= seq.begin; --t) {
            const std::size_t i = at.sequence(b, d, t);
            const std::size_t bi = at.projection(p.variable_B, b, d, n, t);
            const std::size_t ci = at.projection(p.variable_C, b, d, n, t);
            const double delta = step_size(p, i, d);
            const double u = p.u[i];
            const Complex A_bar = std::exp(delta * A);
            const Complex h_previous = t > seq.begin ? h[std::size_t(t - 1) * N + n] : start_state(p, seq.q, d, n);
            const double s_dy = s * dy[std::size_t(t)];

            const auto [g, q_t] = reverse_step(A_bar, s_dy * std::conj(p.C[ci]), q);  // g_t, q_t
            grad.dC[ci] += s_dy * std::conj(h[std::size_t(t) * N + n]);
            const Complex dA_bar = std::conj(h_previous) * g;  // G_{Ā_t}
            grad.dA[at.weight(d, n)] += std::conj(delta * A_bar) * dA_bar;
            grad.dA_terms[at.weight(d, n)] += std::abs(std::conj(delta * A_bar) * dA_bar);
            grad.dB[bi] += delta * u * g;
            grad.du[i] += (std::conj(delta * p.B[bi]) * g).real();
            grad.ddelta[i] += (std::conj(A * A_bar) * dA_bar).real() + (std::conj(p.B[bi] * u) * g).real();
            q = q_t;  // on to h_{t−1}
          }
          if (p.has_initial_state) grad.dinitial_state[at.state(seq.q, d, n)] = q;
        }
      // [/snippet:backward_recurrence]
      // Through the softplus and the bias: ddelta above is ∂L/∂δ; turn it into ∂L/∂delta_raw.
      for (std::int64_t t = 0; t < p.seqlen; ++t) {
        const std::size_t i = at.sequence(b, d, t);
        const double x = pre_activation(p, i, d);
        grad.ddelta[i] = step_size_gradient(grad.ddelta[i], x, p.delta_softplus);
        if (p.has_delta_bias) grad.ddelta_bias[std::size_t(d)] += grad.ddelta[i];
      }
    }
  return grad;
}

double reference_loss(const Problem& p, const std::vector<double>& dout, const std::vector<Complex>& dlast_state) {
  require_size(dout.size(), std::size_t(p.sequence_elements()), "dout");
  const ForwardResult forward = reference_forward(p);
  const std::vector<double> out = final_output(p, forward);
  double loss = 0;
  for (std::size_t i = 0; i < out.size(); ++i) loss += out[i] * dout[i];
  if (!dlast_state.empty()) {
    require_size(dlast_state.size(), forward.last_state.size(), "dlast_state");
    // Re(conj(g) h) = g_re h_re + g_im h_im: its gradient with respect to h is g (the library's
    // convention for complex values: dL/dRe + i dL/dIm).
    for (std::size_t i = 0; i < dlast_state.size(); ++i)
      loss += (std::conj(dlast_state[i]) * forward.last_state[i]).real();
  }
  return loss;
}

}  // namespace ch08

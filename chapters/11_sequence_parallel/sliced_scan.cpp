#include "sliced_scan.hpp"

#include "slices.hpp"
#include "softplus.hpp"

#include <cmath>
#include <stdexcept>

namespace ch11 {
namespace {

double sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }
using common::softplus;  // cut at 20, as chapter 08's scan cuts it

}  // namespace

// [snippet:slice_backward]
ch08::Gradients slice_backward(const ch08::Problem& p, const std::vector<double>& dout,
                               const std::vector<double>& dlast) {
  require_supported(p);
  const std::int64_t L = p.seqlen, channels_per_group = p.dim / p.groups;
  const std::size_t sequence = std::size_t(p.sequence_elements()),
                    states = std::size_t(p.batch * p.dim) * std::size_t(p.dstate);
  if (dout.size() != sequence || (!dlast.empty() && dlast.size() != states))
    throw std::invalid_argument("ch11: slice_backward: dout or dlast of the wrong size");
  ch08::Gradients g;
  g.du.assign(sequence, 0.0);
  g.ddelta.assign(sequence, 0.0);
  if (p.has_z) g.dz.assign(sequence, 0.0);
  g.dA.assign(std::size_t(p.dim * p.dstate), 0.0);
  g.dA_terms.assign(std::size_t(p.dim * p.dstate), 0.0);
  g.dB.assign(p.B.size(), 0.0);
  g.dC.assign(p.C.size(), 0.0);
  if (p.has_D) g.dD.assign(std::size_t(p.dim), 0.0);
  if (p.has_delta_bias) g.ddelta_bias.assign(std::size_t(p.dim), 0.0);
  g.dinitial_state.assign(states, 0.0);

  std::vector<double> steps(static_cast<std::size_t>(L)), y(steps), dy(steps);
  for (std::int64_t b = 0; b < p.batch; ++b)
    for (std::int64_t d = 0; d < p.dim; ++d) {
      const std::size_t row = std::size_t((b * p.dim + d) * L);
      const std::int64_t group = d / channels_per_group;
      for (std::int64_t t = 0; t < L; ++t) {
        const double v = p.delta[row + std::size_t(t)] + (p.has_delta_bias ? p.delta_bias[std::size_t(d)] : 0.0);
        steps[std::size_t(t)] = p.delta_softplus ? softplus(v) : v;
        y[std::size_t(t)] = p.has_D ? p.D[std::size_t(d)] * p.u[row + std::size_t(t)] : 0.0;
      }
      // The states, forward, kept whole (h[t + 1] = h_t): y needs all of them before the gate's gradient.
      std::vector<std::vector<double>> kept(std::size_t(p.dstate), std::vector<double>(std::size_t(L + 1)));
      for (int n = 0; n < p.dstate; ++n) {
        const double A = p.A[std::size_t(d * p.dstate + n)].real();
        const std::size_t bc = std::size_t(((b * p.groups + group) * p.dstate + n) * L);
        std::vector<double>& hn = kept[std::size_t(n)];
        hn[0] = p.has_initial_state ? p.initial_state[std::size_t((b * p.dim + d) * p.dstate + n)].real() : 0.0;
        for (std::int64_t t = 0; t < L; ++t) {
          const double dt = steps[std::size_t(t)];
          hn[std::size_t(t + 1)] =
              std::exp(dt * A) * hn[std::size_t(t)] + dt * p.B[bc + std::size_t(t)].real() * p.u[row + std::size_t(t)];
          y[std::size_t(t)] += p.C[bc + std::size_t(t)].real() * hn[std::size_t(t + 1)];
        }
      }
      // The gate: out = y·silu(z).
      for (std::int64_t t = 0; t < L; ++t) {
        const std::size_t e = row + std::size_t(t);
        if (p.has_z) {
          const double z = p.z[e], s = sigmoid(z);
          dy[std::size_t(t)] = dout[e] * z * s;
          g.dz[e] = dout[e] * y[std::size_t(t)] * s * (1.0 + z * (1.0 - s));
        } else {
          dy[std::size_t(t)] = dout[e];
        }
        if (p.has_D) {
          g.dD[std::size_t(d)] += dy[std::size_t(t)] * p.u[e];
          g.du[e] += dy[std::size_t(t)] * p.D[std::size_t(d)];
        }
      }
      // The adjoint recurrence, backward in time: q = ∂L/∂h_t, starting from what later slices send.
      std::vector<double> dsteps(std::size_t(L), 0.0);
      for (int n = 0; n < p.dstate; ++n) {
        const double A = p.A[std::size_t(d * p.dstate + n)].real();
        const std::size_t bc = std::size_t(((b * p.groups + group) * p.dstate + n) * L);
        const std::size_t state = std::size_t((b * p.dim + d) * p.dstate + n);
        const std::vector<double>& hn = kept[std::size_t(n)];
        double q = dlast.empty() ? 0.0 : dlast[state];
        for (std::int64_t t = L - 1; t >= 0; --t) {
          const std::size_t e = row + std::size_t(t);
          const double dt = steps[std::size_t(t)], abar = std::exp(dt * A), Bt = p.B[bc + std::size_t(t)].real();
          q += p.C[bc + std::size_t(t)].real() * dy[std::size_t(t)];
          g.dC[bc + std::size_t(t)] += dy[std::size_t(t)] * hn[std::size_t(t + 1)];
          g.dB[bc + std::size_t(t)] += q * dt * p.u[e];
          g.du[e] += q * dt * Bt;
          const double through_decay = q * abar * hn[std::size_t(t)];
          g.dA[std::size_t(d * p.dstate + n)] += through_decay * dt;
          g.dA_terms[std::size_t(d * p.dstate + n)] += std::abs(through_decay * dt);
          dsteps[std::size_t(t)] += through_decay * A + q * Bt * p.u[e];
          q *= abar;  // what step t hands back to h_{t−1}
        }
        g.dinitial_state[state] = q;
      }
      // Through softplus and the bias to the raw step.
      for (std::int64_t t = 0; t < L; ++t) {
        const double v = p.delta[row + std::size_t(t)] + (p.has_delta_bias ? p.delta_bias[std::size_t(d)] : 0.0);
        const double draw =
            p.delta_softplus && v <= 20.0 ? dsteps[std::size_t(t)] * sigmoid(v) : dsteps[std::size_t(t)];
        g.ddelta[row + std::size_t(t)] = draw;
        if (p.has_delta_bias) g.ddelta_bias[std::size_t(d)] += draw;
      }
    }
  return g;
}
// [/snippet:slice_backward]

SlicedForward sliced_forward(const ch08::Problem& p, int ranks) {
  require_supported(p);
  const std::vector<Slice> slices = split(p.seqlen, ranks);
  const std::int64_t rows = p.batch * p.dim;
  const std::vector<double> initial = p.has_initial_state ? real_parts(p.initial_state) : std::vector<double>();
  SlicedForward f;
  // Every rank summarizes its own slice; the all-gather hands every summary to every rank.
  for (const Slice& s : slices) f.summaries.push_back(summarize(slice_of(p, s, {})));
  std::vector<std::vector<double>> out, out_z;
  for (int r = 0; r < ranks; ++r) {
    f.entering.push_back(carry_into(f.summaries, r, initial));
    const ch08::ForwardResult run = ch08::reference_forward(slice_of(p, slices[std::size_t(r)], f.entering.back()));
    out.push_back(run.out);
    out_z.push_back(run.out_z);
    if (r == ranks - 1) f.last_state = real_parts(run.last_state);
  }
  f.out = joined(out, rows);
  if (p.has_z) f.out_z = joined(out_z, rows);
  return f;
}

ch08::Gradients sliced_backward(const ch08::Problem& p, const std::vector<double>& dout, int ranks) {
  const SlicedForward f = sliced_forward(p, ranks);
  const std::vector<Slice> slices = split(p.seqlen, ranks);
  const std::int64_t rows = p.batch * p.dim;
  std::vector<ch08::Problem> pieces;
  std::vector<std::vector<double>> douts, local;
  for (int r = 0; r < ranks; ++r) {
    pieces.push_back(slice_of(p, slices[std::size_t(r)], f.entering[std::size_t(r)]));
    douts.push_back(cut(dout, rows, p.seqlen, slices[std::size_t(r)]));
    // Each rank alone: what its own outputs ask of the state entering its slice.
    local.push_back(real_parts(slice_backward(pieces.back(), douts.back(), {}).dinitial_state));
  }
  // After the all-gather of `local`, each rank's backward again, with what the later slices send.
  ch08::Gradients total;
  std::vector<std::vector<double>> du, ddelta, dz, dB, dC;
  for (int r = 0; r < ranks; ++r) {
    const ch08::Gradients g =
        slice_backward(pieces[std::size_t(r)], douts[std::size_t(r)], gradient_after(f.summaries, local, r));
    du.push_back(g.du);
    ddelta.push_back(g.ddelta);
    dz.push_back(g.dz);
    dB.push_back(real_parts(g.dB));
    dC.push_back(real_parts(g.dC));
    if (r == 0) {
      total = g;  // its dinitial_state is the whole sequence's
    } else {      // the parameters' gradients: an all-reduce over the ranks
      for (std::size_t e = 0; e < g.dA.size(); ++e) total.dA[e] += g.dA[e], total.dA_terms[e] += g.dA_terms[e];
      for (std::size_t e = 0; e < g.dD.size(); ++e) total.dD[e] += g.dD[e];
      for (std::size_t e = 0; e < g.ddelta_bias.size(); ++e) total.ddelta_bias[e] += g.ddelta_bias[e];
    }
  }
  const std::int64_t projection_rows = p.batch * p.groups * p.dstate;
  total.du = joined(du, rows);
  total.ddelta = joined(ddelta, rows);
  if (p.has_z) total.dz = joined(dz, rows);
  const std::vector<double> dB_all = joined(dB, projection_rows), dC_all = joined(dC, projection_rows);
  total.dB.assign(dB_all.begin(), dB_all.end());
  total.dC.assign(dC_all.begin(), dC_all.end());
  if (!p.has_initial_state) total.dinitial_state.clear();
  return total;
}

}  // namespace ch11

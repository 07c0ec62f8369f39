#include "reference_model.hpp"

#include "causal_conv1d.hpp"
#include "channels_first.hpp"
#include "real_scan.hpp"
#include "rms_norm.hpp"
#include "sigmoid.hpp"
#include "softplus.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ch09 {
namespace {

using common::softplus;  // cut at 20, as chapter 08's scan cuts it

struct Dims {
  std::size_t batch, L, dm, di, N, R, V, W, xp;
  Dims(const ModelConfig& c, const Batch& b)
      : batch(std::size_t(b.batch)),
        L(std::size_t(b.seqlen)),
        dm(std::size_t(c.d_model)),
        di(std::size_t(c.d_inner())),
        N(std::size_t(c.d_state)),
        R(std::size_t(c.dt_rank)),
        V(std::size_t(c.vocab)),
        W(std::size_t(c.conv_width)),
        xp(std::size_t(c.x_proj_rows())) {}
};

// RMSNorm of every (b, t) column of a (batch, C, L) tensor.
void norm_columns(const std::vector<double>& x, const double* weight, std::size_t batch, std::size_t C, std::size_t L,
                  std::vector<double>& out, std::vector<double>& inv_rms) {
  out.assign(x.size(), 0.0);
  inv_rms.assign(batch * L, 0.0);
  std::vector<double> column(C), normed(C);
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t t = 0; t < L; ++t) {
      for (std::size_t c = 0; c < C; ++c) column[c] = x[(b * C + c) * L + t];
      inv_rms[b * L + t] = rms_norm_forward(column, {weight, C}, normed);
      for (std::size_t c = 0; c < C; ++c) out[(b * C + c) * L + t] = normed[c];
    }
}

// Adds the gradient through the norm into dx and dweight.
void norm_columns_backward(const std::vector<double>& x, const double* weight, const std::vector<double>& inv_rms,
                           const std::vector<double>& dout, std::size_t batch, std::size_t C, std::size_t L,
                           std::vector<double>& dx, double* dweight) {
  std::vector<double> column(C), dcolumn(C), dxc(C);
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t t = 0; t < L; ++t) {
      for (std::size_t c = 0; c < C; ++c) {
        column[c] = x[(b * C + c) * L + t];
        dcolumn[c] = dout[(b * C + c) * L + t];
      }
      rms_norm_backward(column, {weight, C}, inv_rms[b * L + t], dcolumn, dxc, {dweight, C});
      for (std::size_t c = 0; c < C; ++c) dx[(b * C + c) * L + t] += dxc[c];
    }
}

// Chapter 08's reference backward, its complex results as the real numbers they are here.
RealScanGradients scan_gradients(const ch08::Problem& p, const std::vector<double>& dout) {
  ch08::Gradients c = ch08::reference_backward(p, dout);
  auto real = [](const std::vector<ch08::Complex>& v) {
    std::vector<double> r(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) r[i] = v[i].real();
    return r;
  };
  return {std::move(c.du), std::move(c.ddelta), std::move(c.dz), real(c.dA),
          real(c.dB),      real(c.dC),          std::move(c.dD), std::move(c.ddelta_bias)};
}

void check_inputs(const ModelConfig& config, const std::vector<double>& parameters, const Batch& batch) {
  const std::string problem = config.validate();
  if (!problem.empty()) throw std::invalid_argument("ch09 model: " + problem);
  const std::size_t total = parameter_layout(config).total;
  if (parameters.size() != total)
    throw std::invalid_argument("ch09 model: " + std::to_string(parameters.size()) + " parameters, the config needs " +
                                std::to_string(total));
  const std::size_t n = std::size_t(batch.batch) * std::size_t(batch.seqlen);
  if (batch.batch < 1 || batch.seqlen < 1 || batch.tokens.size() != n || batch.targets.size() != n)
    throw std::invalid_argument("ch09 model: the batch's tokens and targets are not (batch, seqlen)");
  for (std::size_t i = 0; i < n; ++i)
    if (batch.tokens[i] < 0 || batch.tokens[i] >= config.vocab || batch.targets[i] >= config.vocab)
      throw std::invalid_argument("ch09 model: token or target " + std::to_string(i) + " outside the vocabulary");
}

}  // namespace

std::vector<double> to_double(const std::vector<float>& parameters) { return {parameters.begin(), parameters.end()}; }

std::vector<float> to_float(const std::vector<double>& parameters) {
  std::vector<float> out(parameters.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = float(parameters[i]);
  return out;
}

ModelForward model_forward(const ModelConfig& config, const std::vector<double>& parameters, const Batch& batch,
                           ScanPath scan) {
  check_inputs(config, parameters, batch);
  const Dims s(config, batch);
  const ParameterLayout layout = parameter_layout(config);
  const double* P = parameters.data();
  const bool selective = config.kind == SsmKind::selective;
  ModelForward f;

  // The embedding: r[b, :, t] = E[token[b, t], :].
  std::vector<double> r(s.batch * s.dm * s.L);
  for (std::size_t b = 0; b < s.batch; ++b)
    for (std::size_t t = 0; t < s.L; ++t) {
      const std::size_t token = std::size_t(batch.tokens[b * s.L + t]);
      for (std::size_t c = 0; c < s.dm; ++c) r[(b * s.dm + c) * s.L + t] = P[layout.embedding + token * s.dm + c];
    }

  for (const LayerOffsets& o : layout.layers) {
    LayerTrace tr;
    tr.residual = r;
    norm_columns(r, P + o.norm, s.batch, s.dm, s.L, tr.normed, tr.inv_rms);
    if (config.kind == SsmKind::mamba2) {
      tr.mamba2 = mamba2_forward(config.mamba2(), mamba2_blocks(P, o), tr.normed, s.batch, s.L);
      for (std::size_t i = 0; i < r.size(); ++i) r[i] += tr.mamba2.out[i];
      f.layers.push_back(std::move(tr));
      continue;
    }

    // in_proj: rows [0, d_inner) of its output are x, the rest z.
    tr.x.assign(s.batch * s.di * s.L, 0.0);
    tr.z.assign(s.batch * s.di * s.L, 0.0);
    linear(P + o.in_proj, s.di, s.dm, {tr.normed.data(), s.dm}, {tr.x.data(), s.di}, s.batch, s.L);
    linear(P + o.in_proj + s.di * s.dm, s.di, s.dm, {tr.normed.data(), s.dm}, {tr.z.data(), s.di}, s.batch, s.L);

    tr.conv.assign(tr.x.size(), 0.0);
    tr.xs.assign(tr.x.size(), 0.0);
    for (std::size_t b = 0; b < s.batch; ++b)
      for (std::size_t c = 0; c < s.di; ++c) {
        const std::size_t row = (b * s.di + c) * s.L;
        causal_conv1d_forward({tr.x.data() + row, s.L}, {P + o.conv_weight + c * s.W, s.W}, P[o.conv_bias + c],
                              {tr.conv.data() + row, s.L});
      }
    for (std::size_t i = 0; i < tr.xs.size(); ++i) tr.xs[i] = tr.conv[i] * sigmoid(tr.conv[i]);

    // The scan's inputs, exactly the library call of the GPU model: groups = 1, real A, D, the z
    // gate, dt_bias as delta_bias with the softplus inside.
    ch08::Problem& p = tr.scan;
    p.batch = std::int64_t(s.batch);
    p.dim = std::int64_t(s.di);
    p.seqlen = std::int64_t(s.L);
    p.dstate = int(s.N);
    p.groups = 1;
    p.variable_B = p.variable_C = selective;
    p.has_D = p.has_z = p.has_delta_bias = p.delta_softplus = true;
    p.u = tr.xs;
    p.z = tr.z;
    p.delta.assign(tr.x.size(), 0.0);  // LTI: Δ = softplus(dt_bias), the same at every step
    p.A.resize(s.di * s.N);
    for (std::size_t i = 0; i < p.A.size(); ++i) p.A[i] = -std::exp(P[o.A_log + i]);
    p.D.assign(P + o.D, P + o.D + s.di);
    p.delta_bias.assign(P + o.dt_bias, P + o.dt_bias + s.di);
    if (selective) {
      // [snippet:selective_projections]
      // Δ, B and C from the input itself: this is the selection.
      tr.dbc.assign(s.batch * s.xp * s.L, 0.0);
      linear(P + o.x_proj, s.xp, s.di, {tr.xs.data(), s.di}, {tr.dbc.data(), s.xp}, s.batch, s.L);
      linear(P + o.dt_proj, s.di, s.R, {tr.dbc.data(), s.xp}, {p.delta.data(), s.di}, s.batch, s.L);
      // [/snippet:selective_projections]
      // B and C (batch, groups = 1, N, L) are rows [R, R+N) and [R+N, R+2N) of dbc, as they lie.
      p.B.resize(s.batch * s.N * s.L);
      p.C.resize(s.batch * s.N * s.L);
      for (std::size_t b = 0; b < s.batch; ++b)
        for (std::size_t i = 0; i < s.N * s.L; ++i) {
          p.B[b * s.N * s.L + i] = tr.dbc[(b * s.xp + s.R) * s.L + i];
          p.C[b * s.N * s.L + i] = tr.dbc[(b * s.xp + s.R + s.N) * s.L + i];
        }
    } else {
      p.B.assign(P + o.B, P + o.B + s.di * s.N);
      p.C.assign(P + o.C, P + o.C + s.di * s.N);
    }
    tr.delta.resize(p.delta.size());
    for (std::size_t b = 0; b < s.batch; ++b)
      for (std::size_t c = 0; c < s.di; ++c)
        for (std::size_t t = 0; t < s.L; ++t) {
          const std::size_t i = (b * s.di + c) * s.L + t;
          tr.delta[i] = softplus(p.delta[i] + p.delta_bias[c]);
        }
    tr.gated = scan == ScanPath::real_fp64 ? real_scan_forward(p) : ch08::reference_forward(p).out_z;

    // The residual: r += out_proj · gated.
    std::vector<double> update(r.size());
    linear(P + o.out_proj, s.dm, s.di, {tr.gated.data(), s.di}, {update.data(), s.dm}, s.batch, s.L);
    for (std::size_t i = 0; i < r.size(); ++i) r[i] += update[i];
    f.layers.push_back(std::move(tr));
  }

  f.final_residual = r;
  norm_columns(r, P + layout.final_norm, s.batch, s.dm, s.L, f.final_normed, f.final_inv_rms);
  f.logits.assign(s.batch * s.V * s.L, 0.0);
  linear(P + layout.embedding, s.V, s.dm, {f.final_normed.data(), s.dm}, {f.logits.data(), s.V}, s.batch, s.L);

  // [snippet:cross_entropy]
  // Cross-entropy at the scored positions: log Σ_v e^{logit_v} - logit_target, averaged.
  double sum = 0.0;
  long scored = 0;
  for (std::size_t b = 0; b < s.batch; ++b)
    for (std::size_t t = 0; t < s.L; ++t) {
      const int target = batch.targets[b * s.L + t];
      if (target < 0) continue;
      const double* column = f.logits.data() + b * s.V * s.L + t;
      double top = column[0];
      for (std::size_t v = 1; v < s.V; ++v) top = std::max(top, column[v * s.L]);
      double e = 0.0;
      for (std::size_t v = 0; v < s.V; ++v) e += std::exp(column[v * s.L] - top);
      sum += top + std::log(e) - column[std::size_t(target) * s.L];
      ++scored;
    }
  f.loss = scored ? sum / double(scored) : 0.0;
  // [/snippet:cross_entropy]
  f.accuracy = token_accuracy(f.logits, config.vocab, batch);
  return f;
}

std::vector<double> model_backward(const ModelConfig& config, const std::vector<double>& parameters, const Batch& batch,
                                   const ModelForward& f, ScanPath scan) {
  check_inputs(config, parameters, batch);
  const Dims s(config, batch);
  const ParameterLayout layout = parameter_layout(config);
  const double* P = parameters.data();
  const bool selective = config.kind == SsmKind::selective;
  std::vector<double> grad(parameters.size(), 0.0);
  double* G = grad.data();

  // dlogits = (softmax - onehot) / scored at the scored positions, 0 elsewhere.
  std::vector<double> dlogits(f.logits.size(), 0.0);
  long scored = 0;
  for (int target : batch.targets) scored += target >= 0;
  for (std::size_t b = 0; b < s.batch; ++b)
    for (std::size_t t = 0; t < s.L; ++t) {
      const int target = batch.targets[b * s.L + t];
      if (target < 0) continue;
      const std::size_t base = b * s.V * s.L + t;
      double top = f.logits[base];
      for (std::size_t v = 1; v < s.V; ++v) top = std::max(top, f.logits[base + v * s.L]);
      double e = 0.0;
      for (std::size_t v = 0; v < s.V; ++v) e += std::exp(f.logits[base + v * s.L] - top);
      for (std::size_t v = 0; v < s.V; ++v) {
        const double softmax = std::exp(f.logits[base + v * s.L] - top) / e;
        dlogits[base + v * s.L] = (softmax - (int(v) == target ? 1.0 : 0.0)) / double(scored);
      }
    }

  // The tied head, then the final norm.
  std::vector<double> dnormed(s.batch * s.dm * s.L, 0.0);
  linear_backward(P + layout.embedding, s.V, s.dm, {f.final_normed.data(), s.dm}, {dlogits.data(), s.V},
                  {dnormed.data(), s.dm}, G + layout.embedding, s.batch, s.L);
  std::vector<double> dr(dnormed.size(), 0.0);
  norm_columns_backward(f.final_residual, P + layout.final_norm, f.final_inv_rms, dnormed, s.batch, s.dm, s.L, dr,
                        G + layout.final_norm);

  for (std::size_t l = layout.layers.size(); l-- > 0;) {
    const LayerOffsets& o = layout.layers[l];
    const LayerTrace& tr = f.layers[l];
    if (config.kind == SsmKind::mamba2) {  // the block's input is the normed residual
      const std::vector<double> dn = mamba2_backward(config.mamba2(), mamba2_blocks(P, o), tr.normed, tr.mamba2, dr,
                                                     mamba2_blocks(G, o), s.batch, s.L);
      norm_columns_backward(tr.residual, P + o.norm, tr.inv_rms, dn, s.batch, s.dm, s.L, dr, G + o.norm);
      continue;
    }
    const ch08::Problem& p = tr.scan;

    // r += out_proj·gated: dr passes through unchanged, and also reaches gated.
    std::vector<double> dgated(s.batch * s.di * s.L, 0.0);
    linear_backward(P + o.out_proj, s.dm, s.di, {tr.gated.data(), s.di}, {dr.data(), s.dm}, {dgated.data(), s.di},
                    G + o.out_proj, s.batch, s.L);

    const RealScanGradients g = scan == ScanPath::real_fp64 ? real_scan_backward(p, dgated) : scan_gradients(p, dgated);
    std::vector<double> dxs = g.du;
    for (std::size_t i = 0; i < s.di * s.N; ++i) G[o.A_log + i] += g.dA[i] * p.A[i].real();  // A = -exp(A_log)
    for (std::size_t c = 0; c < s.di; ++c) {
      G[o.D + c] += g.dD[c];
      G[o.dt_bias + c] += g.ddelta_bias[c];
    }
    if (selective) {
      std::vector<double> ddbc(s.batch * s.xp * s.L, 0.0);
      for (std::size_t b = 0; b < s.batch; ++b)
        for (std::size_t i = 0; i < s.N * s.L; ++i) {
          ddbc[(b * s.xp + s.R) * s.L + i] = g.dB[b * s.N * s.L + i];
          ddbc[(b * s.xp + s.R + s.N) * s.L + i] = g.dC[b * s.N * s.L + i];
        }
      // delta_raw = dt_proj·dt_low; g.ddelta is already ∂L/∂delta_raw (through the softplus).
      linear_backward(P + o.dt_proj, s.di, s.R, {tr.dbc.data(), s.xp}, {g.ddelta.data(), s.di}, {ddbc.data(), s.xp},
                      G + o.dt_proj, s.batch, s.L);
      linear_backward(P + o.x_proj, s.xp, s.di, {tr.xs.data(), s.di}, {ddbc.data(), s.xp}, {dxs.data(), s.di},
                      G + o.x_proj, s.batch, s.L);
    } else {
      for (std::size_t i = 0; i < s.di * s.N; ++i) {
        G[o.B + i] += g.dB[i];
        G[o.C + i] += g.dC[i];
      }
    }

    // xs = silu(conv): silu'(c) = σ(c)(1 + c(1 - σ(c))); then the convolution, per channel.
    std::vector<double> dxz(s.batch * 2 * s.di * s.L, 0.0);  // (batch, 2 d_inner, L): dx, then dz
    std::vector<double> dconv(s.L);
    for (std::size_t b = 0; b < s.batch; ++b)
      for (std::size_t c = 0; c < s.di; ++c) {
        const std::size_t row = (b * s.di + c) * s.L;
        for (std::size_t t = 0; t < s.L; ++t) {
          const double v = tr.conv[row + t], sg = sigmoid(v);
          dconv[t] = dxs[row + t] * sg * (1.0 + v * (1.0 - sg));
        }
        causal_conv1d_backward({tr.x.data() + row, s.L}, {P + o.conv_weight + c * s.W, s.W}, dconv,
                               {dxz.data() + (b * 2 * s.di + c) * s.L, s.L}, {G + o.conv_weight + c * s.W, s.W},
                               G[o.conv_bias + c]);
        for (std::size_t t = 0; t < s.L; ++t) dxz[(b * 2 * s.di + s.di + c) * s.L + t] = g.dz[row + t];
      }

    // xz = in_proj·n, then the norm; the residual adds the norm's gradient into dr.
    std::fill(dnormed.begin(), dnormed.end(), 0.0);
    linear_backward(P + o.in_proj, 2 * s.di, s.dm, {tr.normed.data(), s.dm}, {dxz.data(), 2 * s.di},
                    {dnormed.data(), s.dm}, G + o.in_proj, s.batch, s.L);
    norm_columns_backward(tr.residual, P + o.norm, tr.inv_rms, dnormed, s.batch, s.dm, s.L, dr, G + o.norm);
  }

  // The embedding: E[token] received r's gradient at every position it was looked up.
  for (std::size_t b = 0; b < s.batch; ++b)
    for (std::size_t t = 0; t < s.L; ++t) {
      const std::size_t token = std::size_t(batch.tokens[b * s.L + t]);
      for (std::size_t c = 0; c < s.dm; ++c) G[layout.embedding + token * s.dm + c] += dr[(b * s.dm + c) * s.L + t];
    }
  return grad;
}

}  // namespace ch09

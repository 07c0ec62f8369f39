#include "mamba2_block.hpp"

#include "causal_conv1d.hpp"
#include "channels_first.hpp"
#include "rms_norm.hpp"
#include "ssd_backward.hpp"   // chapter 10's
#include "ssd_reference.hpp"  // chapter 10's

#include "softplus.hpp"

#include <cmath>
#include <stdexcept>

namespace ch09 {
namespace {

struct Mamba2Dims {
  std::size_t batch, L, dm, di, N, H, P, W, K, R;
  Mamba2Dims(const Mamba2Sizes& s, std::size_t batch_, std::size_t L_)
      : batch(batch_),
        L(L_),
        dm(std::size_t(s.d_model)),
        di(std::size_t(s.d_inner)),
        N(std::size_t(s.d_state)),
        H(std::size_t(s.heads())),
        P(std::size_t(s.head_dim)),
        W(std::size_t(s.conv_width)),
        K(std::size_t(s.conv_channels())),
        R(std::size_t(s.in_proj_rows())) {}
  // Row offsets of in_proj's output: z, then x, B and C (the convolution's K rows), then dt.
  std::size_t z_row() const { return 0; }
  std::size_t xbc_row() const { return di; }
  std::size_t dt_row() const { return di + K; }
};

}  // namespace

std::string Mamba2Sizes::validate() const {
  for (const auto& [value, name] : {std::pair{d_model, "d_model"},
                                    {d_inner, "d_inner"},
                                    {head_dim, "head_dim"},
                                    {d_state, "d_state"},
                                    {conv_width, "conv_width"}})
    if (value < 1) return std::string(name) + " is " + std::to_string(value) + ", must be at least 1";
  if (d_inner % head_dim != 0)
    return "head_dim " + std::to_string(head_dim) + " does not divide d_inner " + std::to_string(d_inner);
  return "";
}

Mamba2Trace mamba2_forward(const Mamba2Sizes& sizes, const Mamba2Weights& w, const std::vector<double>& n,
                           std::size_t batch, std::size_t L) {
  if (const std::string problem = sizes.validate(); !problem.empty())
    throw std::invalid_argument("Mamba-2 block: " + problem);
  const Mamba2Dims s(sizes, batch, L);
  if (batch < 1 || L < 1 || n.size() != batch * s.dm * L)
    throw std::invalid_argument("Mamba-2 block: the input is not (batch, d_model, L)");
  Mamba2Trace tr;
  tr.zxbcdt.assign(batch * s.R * L, 0.0);
  linear(w.in_proj, s.R, s.dm, {n.data(), s.dm}, {tr.zxbcdt.data(), s.R}, batch, L);

  // One causal convolution over x, B and C, each channel its own taps; then the SiLU.
  tr.conv.assign(batch * s.K * L, 0.0);
  std::vector<double> xbc(tr.conv.size());
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t c = 0; c < s.K; ++c)
      causal_conv1d_forward({tr.zxbcdt.data() + (b * s.R + s.xbc_row() + c) * L, L}, {w.conv_weight + c * s.W, s.W},
                            w.conv_bias[c], {tr.conv.data() + (b * s.K + c) * L, L});
  for (std::size_t i = 0; i < xbc.size(); ++i) xbc[i] = ch10::silu(tr.conv[i]);

  // The SSD on chapter 10's time-major layout: x in heads, B and C one group, dt one a head.
  ch10::Problem& p = tr.ssd;
  p.shape = {std::int64_t(batch), std::int64_t(L), int(s.H), int(s.P), 1, int(s.N)};
  const ch10::Index at{p.shape};
  p.x.resize(at.x_size());
  p.dt.resize(at.dt_size());
  p.B.resize(at.bc_size());
  p.C.resize(at.bc_size());
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t t = 0; t < L; ++t) {
      const auto B = std::int64_t(b), T = std::int64_t(t);
      for (std::size_t c = 0; c < s.di; ++c) p.x[at.x(B, T, int(c / s.P), int(c % s.P))] = xbc[(b * s.K + c) * L + t];
      for (std::size_t k = 0; k < s.N; ++k) {
        p.B[at.bc(B, T, 0, int(k))] = xbc[(b * s.K + s.di + k) * L + t];
        p.C[at.bc(B, T, 0, int(k))] = xbc[(b * s.K + s.di + s.N + k) * L + t];
      }
      for (std::size_t h = 0; h < s.H; ++h) p.dt[at.dt(B, T, int(h))] = tr.zxbcdt[(b * s.R + s.dt_row() + h) * L + t];
    }
  p.A.resize(s.H);
  for (std::size_t h = 0; h < s.H; ++h) p.A[h] = -std::exp(w.A_log[h]);
  p.D.assign(w.D, w.D + s.H);
  p.dt_bias.assign(w.dt_bias, w.dt_bias + s.H);
  p.dt_softplus = true;
  const ch10::Forward f = ch10::ssd_recurrence(p);

  // The gate, then the norm over the d_inner channels of each position, then out_proj.
  tr.y.assign(batch * s.di * L, 0.0);
  tr.gated.assign(tr.y.size(), 0.0);
  tr.normed.assign(tr.y.size(), 0.0);
  tr.inv_rms.assign(batch * L, 0.0);
  std::vector<double> column(s.di), normed(s.di);
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t t = 0; t < L; ++t) {
      for (std::size_t c = 0; c < s.di; ++c) {
        const std::size_t e = (b * s.di + c) * L + t;
        tr.y[e] = f.y[at.x(std::int64_t(b), std::int64_t(t), int(c / s.P), int(c % s.P))];
        tr.gated[e] = column[c] = tr.y[e] * ch10::silu(tr.zxbcdt[(b * s.R + s.z_row() + c) * L + t]);
      }
      tr.inv_rms[b * L + t] = rms_norm_forward(column, {w.norm, s.di}, normed);
      for (std::size_t c = 0; c < s.di; ++c) tr.normed[(b * s.di + c) * L + t] = normed[c];
    }
  tr.out.assign(batch * s.dm * L, 0.0);
  linear(w.out_proj, s.dm, s.di, {tr.normed.data(), s.di}, {tr.out.data(), s.dm}, batch, L);
  return tr;
}

std::vector<double> mamba2_backward(const Mamba2Sizes& sizes, const Mamba2Weights& w, const std::vector<double>& n,
                                    const Mamba2Trace& tr, const std::vector<double>& dout,
                                    const Mamba2WeightGradients& grad, std::size_t batch, std::size_t L) {
  const Mamba2Dims s(sizes, batch, L);
  if (dout.size() != tr.out.size() || n.size() != batch * s.dm * L)
    throw std::invalid_argument("Mamba-2 block backward: dout or n is not (batch, d_model, L)");
  std::vector<double> dnormed(tr.normed.size(), 0.0);
  linear_backward(w.out_proj, s.dm, s.di, {tr.normed.data(), s.di}, {dout.data(), s.dm}, {dnormed.data(), s.di},
                  grad.out_proj, batch, L);

  // The norm, column by column; then the gate: dy = dg silu(z), dz = dg y silu'(z).
  const ch10::Index at{tr.ssd.shape};
  std::vector<double> dzxbcdt(tr.zxbcdt.size(), 0.0), dy(at.x_size(), 0.0);
  std::vector<double> column(s.di), dcolumn(s.di), dgated(s.di);
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t t = 0; t < L; ++t) {
      for (std::size_t c = 0; c < s.di; ++c) {
        column[c] = tr.gated[(b * s.di + c) * L + t];
        dcolumn[c] = dnormed[(b * s.di + c) * L + t];
      }
      rms_norm_backward(column, {w.norm, s.di}, tr.inv_rms[b * L + t], dcolumn, dgated, {grad.norm, s.di});
      for (std::size_t c = 0; c < s.di; ++c) {
        const double z = tr.zxbcdt[(b * s.R + s.z_row() + c) * L + t], y = tr.y[(b * s.di + c) * L + t];
        dy[at.x(std::int64_t(b), std::int64_t(t), int(c / s.P), int(c % s.P))] = dgated[c] * ch10::silu(z);
        dzxbcdt[(b * s.R + s.z_row() + c) * L + t] = dgated[c] * y * ch10::silu_slope(z);
      }
    }

  // The SSD's adjoint; A = −exp(A_log), so ∂A/∂A_log = A.
  const ch10::Gradients g = ch10::ssd_backward(tr.ssd, dy);
  for (std::size_t h = 0; h < s.H; ++h) {
    grad.A_log[h] += g.dA[h] * tr.ssd.A[h];
    grad.D[h] += g.dD[h];
    grad.dt_bias[h] += g.ddt_bias[h];
  }
  std::vector<double> dxbc(tr.conv.size());
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t t = 0; t < L; ++t) {
      const auto B = std::int64_t(b), T = std::int64_t(t);
      for (std::size_t c = 0; c < s.di; ++c) dxbc[(b * s.K + c) * L + t] = g.dx[at.x(B, T, int(c / s.P), int(c % s.P))];
      for (std::size_t k = 0; k < s.N; ++k) {
        dxbc[(b * s.K + s.di + k) * L + t] = g.dB[at.bc(B, T, 0, int(k))];
        dxbc[(b * s.K + s.di + s.N + k) * L + t] = g.dC[at.bc(B, T, 0, int(k))];
      }
      for (std::size_t h = 0; h < s.H; ++h) dzxbcdt[(b * s.R + s.dt_row() + h) * L + t] = g.ddt[at.dt(B, T, int(h))];
    }

  // The SiLU and the convolution, channel by channel, into x's, B's and C's rows of in_proj's output.
  std::vector<double> dconv(L);
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t c = 0; c < s.K; ++c) {
      const std::size_t row = (b * s.K + c) * L, in_row = (b * s.R + s.xbc_row() + c) * L;
      for (std::size_t t = 0; t < L; ++t) dconv[t] = dxbc[row + t] * ch10::silu_slope(tr.conv[row + t]);
      causal_conv1d_backward({tr.zxbcdt.data() + in_row, L}, {w.conv_weight + c * s.W, s.W}, dconv,
                             {dzxbcdt.data() + in_row, L}, {grad.conv_weight + c * s.W, s.W}, grad.conv_bias[c]);
    }

  std::vector<double> dn(n.size(), 0.0);
  linear_backward(w.in_proj, s.R, s.dm, {n.data(), s.dm}, {dzxbcdt.data(), s.R}, {dn.data(), s.dm}, grad.in_proj, batch,
                  L);
  return dn;
}

std::vector<double> mamba2_step(const Mamba2Sizes& sizes, const Mamba2Weights& w, const std::vector<double>& n,
                                std::vector<double>& window, std::vector<double>& state) {
  const Mamba2Dims s(sizes, 1, 1);
  if (n.size() != s.dm || window.size() != s.K * (s.W - 1) || state.size() != s.di * s.N)
    throw std::invalid_argument("Mamba-2 step: n, the window or the state has the wrong size");
  std::vector<double> zxbcdt(s.R);
  linear(w.in_proj, s.R, s.dm, {n.data(), s.dm}, {zxbcdt.data(), s.R}, 1, 1);

  // The convolution over the kept inputs and this one; then the window moves on by one input.
  std::vector<double> xbc(s.K);
  for (std::size_t c = 0; c < s.K; ++c) {
    double* past = window.data() + c * (s.W - 1);
    const double* tap = w.conv_weight + c * s.W;
    const double input = zxbcdt[s.xbc_row() + c];
    double sum = w.conv_bias[c] + tap[s.W - 1] * input;
    for (std::size_t k = 0; k + 1 < s.W; ++k) sum += tap[k] * past[k];
    for (std::size_t k = 0; k + 2 < s.W; ++k) past[k] = past[k + 1];
    if (s.W > 1) past[s.W - 2] = input;
    xbc[c] = ch10::silu(sum);
  }

  // The SSD's step, a head at a time: one decay for all its channels and states.
  const double* x = xbc.data();
  const double *B = x + s.di, *C = B + s.N;
  std::vector<double> column(s.di), normed(s.di);
  for (std::size_t h = 0; h < s.H; ++h) {
    const double step = common::softplus(zxbcdt[s.dt_row() + h] + w.dt_bias[h]);
    const double decay = std::exp(-std::exp(w.A_log[h]) * step);
    for (std::size_t i = h * s.P; i < (h + 1) * s.P; ++i) {
      double* S = state.data() + i * s.N;
      double y = w.D[h] * x[i];
      for (std::size_t k = 0; k < s.N; ++k) {
        S[k] = decay * S[k] + step * x[i] * B[k];
        y += C[k] * S[k];
      }
      column[i] = y * ch10::silu(zxbcdt[s.z_row() + i]);
    }
  }
  rms_norm_forward(column, {w.norm, s.di}, normed);
  std::vector<double> out(s.dm);
  linear(w.out_proj, s.dm, s.di, {normed.data(), s.di}, {out.data(), s.dm}, 1, 1);
  return out;
}

}  // namespace ch09

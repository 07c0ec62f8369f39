#include "recurrent_inference.hpp"

#include "mamba2_block.hpp"
#include "rms_norm.hpp"
#include "sigmoid.hpp"
#include "softplus.hpp"
#include "ssm_step.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ch09 {
namespace {

using common::softplus;

// y = W·x for a row-major W (rows, cols).
void matvec(const double* W, std::size_t rows, std::size_t cols, const double* x, double* y) {
  for (std::size_t o = 0; o < rows; ++o) {
    double sum = 0.0;
    for (std::size_t i = 0; i < cols; ++i) sum += W[o * cols + i] * x[i];
    y[o] = sum;
  }
}

}  // namespace

// The convolution's channels: d_inner, and for Mamba-2 its B and C too.
std::size_t conv_channels(const ModelConfig& c) {
  return std::size_t(c.kind == SsmKind::mamba2 ? c.mamba2().conv_channels() : c.d_inner());
}

RecurrentState initial_recurrent_state(const ModelConfig& c) {
  RecurrentState s;
  s.conv.assign(std::size_t(c.layers), std::vector<double>(conv_channels(c) * std::size_t(c.conv_width - 1), 0.0));
  s.ssm.assign(std::size_t(c.layers), std::vector<double>(std::size_t(c.d_inner() * c.d_state), 0.0));
  return s;
}

std::size_t recurrent_state_size(const ModelConfig& c) {
  return std::size_t(c.layers) *
         (conv_channels(c) * std::size_t(c.conv_width - 1) + std::size_t(c.d_inner()) * std::size_t(c.d_state));
}

// [snippet:recurrent_step]
std::vector<double> recurrent_step(const ModelConfig& c, const std::vector<double>& parameters, RecurrentState& state,
                                   int token, std::vector<double>* delta_out) {
  const ParameterLayout layout = parameter_layout(c);
  if (parameters.size() != layout.total)
    throw std::invalid_argument("recurrent_step: parameters do not fit the config");
  if (token < 0 || token >= c.vocab) throw std::invalid_argument("recurrent_step: token " + std::to_string(token));
  const std::size_t dm = std::size_t(c.d_model), di = std::size_t(c.d_inner()), N = std::size_t(c.d_state);
  const std::size_t R = std::size_t(c.dt_rank), W = std::size_t(c.conv_width), V = std::size_t(c.vocab);
  const double* P = parameters.data();
  if (delta_out) delta_out->assign(std::size_t(c.layers) * di, 0.0);

  std::vector<double> r(P + layout.embedding + std::size_t(token) * dm, P + layout.embedding + (token + 1) * dm);
  std::vector<double> n(dm), xz(2 * di), xs(di), dbc(std::size_t(c.x_proj_rows())), dt(di), gated(di), update(dm);
  for (std::size_t l = 0; l < layout.layers.size(); ++l) {
    const LayerOffsets& o = layout.layers[l];
    rms_norm_forward(r, {P + o.norm, dm}, n);
    if (c.kind == SsmKind::mamba2) {  // the whole block's step (mamba2_block.hpp)
      const std::vector<double> out = mamba2_step(c.mamba2(), mamba2_blocks(P, o), n, state.conv[l], state.ssm[l]);
      for (std::size_t i = 0; i < dm; ++i) r[i] += out[i];
      continue;
    }
    matvec(P + o.in_proj, 2 * di, dm, n.data(), xz.data());  // x = xz[0, di), z = xz[di, 2 di)

    // The convolution over the kept inputs and this one; then the state moves on by one input.
    std::vector<double>& window = state.conv[l];
    for (std::size_t d = 0; d < di; ++d) {
      double* past = window.data() + d * (W - 1);
      const double* w = P + o.conv_weight + d * W;
      double sum = P[o.conv_bias + d] + w[W - 1] * xz[d];
      for (std::size_t k = 0; k + 1 < W; ++k) sum += w[k] * past[k];
      for (std::size_t k = 0; k + 2 < W; ++k) past[k] = past[k + 1];
      if (W > 1) past[W - 2] = xz[d];
      xs[d] = sum * sigmoid(sum);
    }

    // Δ, B, C: from this token (selective) or the layer's constants (LTI).
    const double* B;
    const double* C;
    std::size_t bc_stride;  // per channel: 0 when every channel reads the same B and C
    if (c.kind == SsmKind::selective) {
      matvec(P + o.x_proj, dbc.size(), di, xs.data(), dbc.data());
      matvec(P + o.dt_proj, di, R, dbc.data(), dt.data());
      B = dbc.data() + R;
      C = dbc.data() + R + N;
      bc_stride = 0;
    } else {
      std::fill(dt.begin(), dt.end(), 0.0);
      B = P + o.B;
      C = P + o.C;
      bc_stride = N;
    }
    std::vector<double>& h = state.ssm[l];
    std::vector<double> A(N);
    for (std::size_t d = 0; d < di; ++d) {
      const double delta = softplus(dt[d] + P[o.dt_bias + d]);
      for (std::size_t k = 0; k < N; ++k) A[k] = -std::exp(P[o.A_log + d * N + k]);
      gated[d] = ssm_step({h.data() + d * N, N}, A, {B + d * bc_stride, N}, {C + d * bc_stride, N}, delta, P[o.D + d],
                          xs[d], xz[di + d]);
      if (delta_out) (*delta_out)[l * di + d] = delta;
    }
    matvec(P + o.out_proj, dm, di, gated.data(), update.data());
    for (std::size_t i = 0; i < dm; ++i) r[i] += update[i];
  }
  rms_norm_forward(r, {P + layout.final_norm, dm}, n);
  std::vector<double> logits(V);
  matvec(P + layout.embedding, V, dm, n.data(), logits.data());
  return logits;
}
// [/snippet:recurrent_step]

std::vector<double> recurrent_logits(const ModelConfig& c, const std::vector<double>& parameters,
                                     const std::vector<int>& tokens) {
  const std::size_t L = tokens.size(), V = std::size_t(c.vocab);
  RecurrentState state = initial_recurrent_state(c);
  std::vector<double> logits(V * L);
  for (std::size_t t = 0; t < L; ++t) {
    const std::vector<double> step = recurrent_step(c, parameters, state, tokens[t]);
    for (std::size_t v = 0; v < V; ++v) logits[v * L + t] = step[v];
  }
  return logits;
}

}  // namespace ch09

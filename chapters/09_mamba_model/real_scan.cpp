#include "real_scan.hpp"

#include "sigmoid.hpp"
#include "softplus.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>

namespace ch09 {
namespace {

using common::softplus;

void check(const ch08::Problem& p) {
  if (p.groups != 1 || p.complex || !p.has_D || !p.has_z || !p.has_delta_bias || !p.delta_softplus ||
      p.has_initial_state)
    throw std::invalid_argument("real_scan: needs groups 1, real A, D, z, delta_bias, softplus, no initial state");
}

// Where B or C of (b, d, n, t) lies: (b, n, t) when variable, (d, n) when constant.
struct Projection {
  bool variable;
  std::size_t N, L;
  std::size_t at(std::size_t b, std::size_t d, std::size_t n, std::size_t t) const {
    return variable ? (b * N + n) * L + t : d * N + n;
  }
};

}  // namespace

std::vector<double> real_scan_forward(const ch08::Problem& p) {
  check(p);
  const std::size_t batch = std::size_t(p.batch), dim = std::size_t(p.dim), L = std::size_t(p.seqlen);
  const std::size_t N = std::size_t(p.dstate);
  const Projection pb{p.variable_B, N, L}, pc{p.variable_C, N, L};
  std::vector<double> out(batch * dim * L), h(N), A(N);
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t d = 0; d < dim; ++d) {
      for (std::size_t n = 0; n < N; ++n) A[n] = p.A[d * N + n].real();
      std::fill(h.begin(), h.end(), 0.0);
      for (std::size_t t = 0; t < L; ++t) {
        const std::size_t i = (b * dim + d) * L + t;
        const double delta = softplus(p.delta[i] + p.delta_bias[d]), u = p.u[i];
        double y = p.D[d] * u;
        for (std::size_t n = 0; n < N; ++n) {
          h[n] = std::exp(delta * A[n]) * h[n] + delta * p.B[pb.at(b, d, n, t)].real() * u;
          y += p.C[pc.at(b, d, n, t)].real() * h[n];
        }
        out[i] = y * p.z[i] * sigmoid(p.z[i]);
      }
    }
  return out;
}

RealScanGradients real_scan_backward(const ch08::Problem& p, const std::vector<double>& dout) {
  check(p);
  const std::size_t batch = std::size_t(p.batch), dim = std::size_t(p.dim), L = std::size_t(p.seqlen);
  const std::size_t N = std::size_t(p.dstate);
  const Projection pb{p.variable_B, N, L}, pc{p.variable_C, N, L};
  RealScanGradients g;
  g.du.assign(p.u.size(), 0.0);
  g.ddelta.assign(p.u.size(), 0.0);
  g.dz.assign(p.u.size(), 0.0);
  g.dA.assign(dim * N, 0.0);
  g.dB.assign(p.B.size(), 0.0);
  g.dC.assign(p.C.size(), 0.0);
  g.dD.assign(dim, 0.0);
  g.ddelta_bias.assign(dim, 0.0);
  // Per channel: the states h_t (L, N) again, then one reverse sweep with the carried gradient
  // G = ∂L/∂h_t, exactly chapter 08's reverse scan in real numbers.
  std::vector<double> h((L + 1) * N), decay(L * N), A(N), carry(N), delta(L);
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t d = 0; d < dim; ++d) {
      for (std::size_t n = 0; n < N; ++n) A[n] = p.A[d * N + n].real();
      std::fill(h.begin(), h.begin() + std::ptrdiff_t(N), 0.0);  // h_{-1} = 0 in row 0
      for (std::size_t t = 0; t < L; ++t) {
        const std::size_t i = (b * dim + d) * L + t;
        delta[t] = softplus(p.delta[i] + p.delta_bias[d]);
        for (std::size_t n = 0; n < N; ++n) {
          decay[t * N + n] = std::exp(delta[t] * A[n]);
          h[(t + 1) * N + n] = decay[t * N + n] * h[t * N + n] + delta[t] * p.B[pb.at(b, d, n, t)].real() * p.u[i];
        }
      }
      std::fill(carry.begin(), carry.end(), 0.0);
      for (std::size_t t = L; t-- > 0;) {
        const std::size_t i = (b * dim + d) * L + t;
        const double u = p.u[i], z = p.z[i], sz = sigmoid(z);
        double y = p.D[d] * u;
        for (std::size_t n = 0; n < N; ++n) y += p.C[pc.at(b, d, n, t)].real() * h[(t + 1) * N + n];
        const double dy = dout[i] * z * sz;  // out = y·silu(z)
        g.dz[i] = dout[i] * y * sz * (1.0 + z * (1.0 - sz));
        g.dD[d] += dy * u;
        double du = dy * p.D[d], ddelta = 0.0;
        for (std::size_t n = 0; n < N; ++n) {
          const double C = p.C[pc.at(b, d, n, t)].real(), B = p.B[pb.at(b, d, n, t)].real();
          g.dC[pc.at(b, d, n, t)] += dy * h[(t + 1) * N + n];
          const double G = dy * C + carry[n];      // ∂L/∂h_t
          const double ddecay = G * h[t * N + n];  // h_t = decay·h_{t-1} + δ B u
          ddelta += ddecay * decay[t * N + n] * A[n] + G * B * u;
          g.dA[d * N + n] += ddecay * decay[t * N + n] * delta[t];  // ∂decay/∂A = δ·decay
          g.dB[pb.at(b, d, n, t)] += G * delta[t] * u;
          du += G * delta[t] * B;
          carry[n] = decay[t * N + n] * G;  // what h_{t-1} receives
        }
        g.du[i] = du;
        const double x = p.delta[i] + p.delta_bias[d];
        const double draw = x > 20.0 ? ddelta : ddelta * sigmoid(x);
        g.ddelta[i] = draw;
        g.ddelta_bias[d] += draw;
      }
    }
  return g;
}

}  // namespace ch09

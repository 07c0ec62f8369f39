#include "ssd_chunked_backward.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace ch10 {

GateGradients gate_backward(const Problem& p, const std::vector<double>& dy, const std::vector<double>& u) {
  const Shape& s = p.shape;
  const Index at{s};
  const bool D_per_head = p.D.size() == std::size_t(s.heads);
  GateGradients out{std::vector<double>(at.x_size()), std::vector<double>(at.x_size(), 0.0),
                    std::vector<double>(p.z.size(), 0.0), std::vector<double>(p.D.size(), 0.0)};
  for (std::int64_t b = 0; b < s.batch; ++b)
    for (std::int64_t t = 0; t < s.seqlen; ++t)
      for (int h = 0; h < s.heads; ++h)
        for (int i = 0; i < s.head_dim; ++i) {
          const std::size_t e = at.x(b, t, h, i);
          out.du[e] = p.z.empty() ? dy[e] : dy[e] * silu(p.z[e]);
          if (!p.z.empty()) out.dz[e] = dy[e] * u[e] * silu_slope(p.z[e]);
          out.dx[e] = skip_weight(p, h, i) * out.du[e];
          if (!p.D.empty()) out.dD[D_per_head ? std::size_t(h) : std::size_t(h) * s.head_dim + i] += out.du[e] * p.x[e];
        }
  return out;
}

// [snippet:chunk_scan_backward]
StageGradients chunk_scan_backward(const Problem& p, const Chunking& chunks, const ChunkCumsum& cumsum,
                                   const PassedStates& passed, const std::vector<double>& du,
                                   std::vector<double>& dentering) {
  const Shape& s = p.shape;
  const Index at{s};
  const ChunkIndex ct{s, chunks};
  StageGradients out{std::vector<double>(at.x_size(), 0.0), std::vector<double>(at.dt_size(), 0.0),
                     std::vector<double>(at.bc_size(), 0.0), std::vector<double>(at.bc_size(), 0.0),
                     std::vector<double>(at.dt_size(), 0.0)};
  dentering.assign(ct.states_size(), 0.0);
  for (std::int64_t b = 0; b < s.batch; ++b)
    for (std::int64_t c = 0; c < chunks.count(); ++c) {
      const std::int64_t first = chunks.begin(c);
      for (int h = 0; h < s.heads; ++h) {
        const int g = at.group(h);
        for (std::int64_t t = first; t < chunks.end(c); ++t) {
          const std::size_t ot = ct.cumsum(b, h, t);
          const double acs_t = cumsum.dA_cumsum[ot];
          // The state-to-output term exp(acs_t) C_t·h_{c−1}, where the entering state reaches t.
          if (sequence_number(p, b, t) == sequence_number(p, b, first - 1)) {
            const double weight = std::exp(acs_t);
            double term = 0.0;  // Σ_i du_t[i] (C_t·h_{c−1})[i]
            for (int i = 0; i < s.head_dim; ++i) {
              const double du_ti = du[at.x(b, t, h, i)];
              for (int k = 0; k < s.dstate; ++k) {
                const double entering = passed.entering[ct.state(b, c, h, i, k)];
                out.dC[at.bc(b, t, g, k)] += weight * du_ti * entering;
                dentering[ct.state(b, c, h, i, k)] += weight * du_ti * p.C[at.bc(b, t, g, k)];
                term += du_ti * p.C[at.bc(b, t, g, k)] * entering;
              }
            }
            out.ddA_cumsum[ot] += weight * term;
          }
          // The quadratic block: exp(acs_t − acs_j) (C_t·B_j) dt'_j x_j for j ≤ t in t's sequence.
          for (std::int64_t j = first; j <= t; ++j) {
            if (sequence_number(p, b, j) != sequence_number(p, b, t)) continue;
            const std::size_t oj = ct.cumsum(b, h, j);
            const double decay = std::exp(acs_t - cumsum.dA_cumsum[oj]), dt = cumsum.dt[oj];
            double cb = 0.0, dux = 0.0;  // C_t·B_j and du_t·x_j
            for (int k = 0; k < s.dstate; ++k) cb += p.C[at.bc(b, t, g, k)] * p.B[at.bc(b, j, g, k)];
            for (int i = 0; i < s.head_dim; ++i) {
              dux += du[at.x(b, t, h, i)] * p.x[at.x(b, j, h, i)];
              out.dx[at.x(b, j, h, i)] += decay * cb * dt * du[at.x(b, t, h, i)];
            }
            const double dcb = decay * dt * dux;  // ∂L/∂(C_t·B_j)
            for (int k = 0; k < s.dstate; ++k) {
              out.dC[at.bc(b, t, g, k)] += dcb * p.B[at.bc(b, j, g, k)];
              out.dB[at.bc(b, j, g, k)] += dcb * p.C[at.bc(b, t, g, k)];
            }
            out.ddt[oj] += decay * cb * dux;
            const double term = decay * cb * dt * dux;
            out.ddA_cumsum[ot] += term;
            out.ddA_cumsum[oj] -= term;
          }
        }
      }
    }
  return out;
}
// [/snippet:chunk_scan_backward]

// [snippet:pass_states_backward]
PassStatesGradients pass_states_backward(const Problem& p, const Chunking& chunks, const ChunkCumsum& cumsum,
                                         const PassedStates& passed, const std::vector<double>& dentering,
                                         const std::vector<double>& dfinal_states) {
  const Shape& s = p.shape;
  const Index at{s};
  const ChunkIndex ct{s, chunks};
  PassStatesGradients out{std::vector<double>(ct.states_size()), std::vector<double>(ct.states_size()),
                          std::vector<double>(at.dt_size(), 0.0), std::vector<double>(p.initial_states.size(), 0.0)};
  for (std::int64_t b = 0; b < s.batch; ++b)
    for (int h = 0; h < s.heads; ++h)
      for (int i = 0; i < s.head_dim; ++i)
        for (int k = 0; k < s.dstate; ++k) {
          // dh = ∂L/∂h_c, from the final states' gradient back to the initial states'.
          double dh = dfinal_states.empty() ? 0.0 : dfinal_states[at.state(b, h, i, k)];
          for (std::int64_t c = chunks.count() - 1; c >= 0; --c) {
            const std::size_t o = ct.state(b, c, h, i, k);
            out.dstates[o] = dh;
            const std::int64_t last = chunks.end(c) - 1;
            const bool carries = sequence_number(p, b, last) == sequence_number(p, b, chunks.begin(c) - 1);
            const double decay = carries ? std::exp(cumsum.dA_cumsum[ct.cumsum(b, h, last)]) : 0.0;
            out.ddA_cumsum[ct.cumsum(b, h, last)] += decay * dh * passed.entering[o];
            dh = dentering[o] + decay * dh;
            out.dentering[o] = dh;
          }
          if (!p.initial_states.empty()) out.dinitial_states[at.state(b, h, i, k)] = dh;
        }
  return out;
}
// [/snippet:pass_states_backward]

StageGradients chunk_states_backward(const Problem& p, const Chunking& chunks, const ChunkCumsum& cumsum,
                                     const std::vector<double>& dstates) {
  const Shape& s = p.shape;
  const Index at{s};
  const ChunkIndex ct{s, chunks};
  StageGradients out{std::vector<double>(at.x_size(), 0.0),
                     std::vector<double>(at.dt_size(), 0.0),
                     std::vector<double>(at.bc_size(), 0.0),
                     {},
                     std::vector<double>(at.dt_size(), 0.0)};
  for (std::int64_t b = 0; b < s.batch; ++b)
    for (std::int64_t c = 0; c < chunks.count(); ++c) {
      const std::int64_t last = chunks.end(c) - 1;
      for (int h = 0; h < s.heads; ++h) {
        const int g = at.group(h);
        const std::size_t ol = ct.cumsum(b, h, last);
        for (std::int64_t j = chunks.begin(c); j <= last; ++j) {
          if (sequence_number(p, b, j) != sequence_number(p, b, last)) continue;
          const std::size_t oj = ct.cumsum(b, h, j);
          const double decay = std::exp(cumsum.dA_cumsum[ol] - cumsum.dA_cumsum[oj]), dt = cumsum.dt[oj];
          double dsxb = 0.0;  // Σ ds ∘ x_j B_jᵀ
          for (int i = 0; i < s.head_dim; ++i) {
            const double x = p.x[at.x(b, j, h, i)];
            double dsb = 0.0;
            for (int k = 0; k < s.dstate; ++k) {
              const double ds = dstates[ct.state(b, c, h, i, k)];
              dsb += ds * p.B[at.bc(b, j, g, k)];
              out.dB[at.bc(b, j, g, k)] += decay * dt * ds * x;
            }
            out.dx[at.x(b, j, h, i)] += decay * dt * dsb;
            dsxb += dsb * x;
          }
          out.ddt[oj] += decay * dsxb;
          out.ddA_cumsum[ol] += decay * dt * dsxb;
          out.ddA_cumsum[oj] -= decay * dt * dsxb;
        }
      }
    }
  return out;
}

// [snippet:chunk_cumsum_backward]
Gradients chunk_cumsum_backward(const Problem& p, const Chunking& chunks, const ChunkCumsum& cumsum,
                                const std::vector<double>& ddt, const std::vector<double>& ddA_cumsum) {
  const Shape& s = p.shape;
  const Index at{s};
  const ChunkIndex ct{s, chunks};
  Gradients out;
  out.ddt.assign(at.dt_size(), 0.0);
  out.dA.assign(std::size_t(s.heads), 0.0);
  out.ddt_bias.assign(p.dt_bias.size(), 0.0);
  for (std::int64_t b = 0; b < s.batch; ++b)
    for (int h = 0; h < s.heads; ++h)
      for (std::int64_t c = 0; c < chunks.count(); ++c) {
        double dsum = 0.0;  // Σ_{t ≥ s in the chunk} ∂L/∂acs_t = ∂L/∂(dt'_s A): the reverse cumsum
        for (std::int64_t t = chunks.end(c) - 1; t >= chunks.begin(c); --t) {
          const std::size_t o = ct.cumsum(b, h, t);
          dsum += ddA_cumsum[o];
          out.dA[std::size_t(h)] += dsum * cumsum.dt[o];
          const std::size_t e = at.dt(b, t, h);
          out.ddt[e] = raw_step_gradient(p, ddt[o] + dsum * p.A[std::size_t(h)], p.dt[e], h);
          if (!p.dt_bias.empty()) out.ddt_bias[std::size_t(h)] += out.ddt[e];
        }
      }
  return out;
}
// [/snippet:chunk_cumsum_backward]

ChunkedBackward ssd_chunked_backward_stages(const Problem& p, const std::vector<double>& dy,
                                            const std::vector<double>& dfinal_states, std::int64_t chunk_size) {
  validate(p);
  const Index at{p.shape};
  require_size("ch10 SSD chunked backward", dy, at.x_size(), "dy");
  if (!dfinal_states.empty())
    require_size("ch10 SSD chunked backward", dfinal_states, at.state_size(), "dfinal_states");
  const Chunking chunks = chunking(p, chunk_size);
  // The forward again, keeping what the backward stages read: the cumsums, the entering states, u.
  const ChunkCumsum cumsum = chunk_cumsum(p, chunks);
  const PassedStates passed = pass_states(p, chunks, cumsum, chunk_states(p, chunks, cumsum));
  Problem ungated = p;
  ungated.z.clear();
  const std::vector<double> u = chunk_scan(ungated, chunks, cumsum, chunk_cb(p, chunks), passed);

  ChunkedBackward out;
  out.gate = gate_backward(p, dy, u);
  out.scan = chunk_scan_backward(p, chunks, cumsum, passed, out.gate.du, out.dentering_from_outputs);
  out.passed = pass_states_backward(p, chunks, cumsum, passed, out.dentering_from_outputs, dfinal_states);
  out.states = chunk_states_backward(p, chunks, cumsum, out.passed.dstates);

  std::vector<double> ddt = out.scan.ddt, ddA_cumsum = out.scan.ddA_cumsum;
  for (std::size_t o = 0; o < ddt.size(); ++o) {
    ddt[o] += out.states.ddt[o];
    ddA_cumsum[o] += out.passed.ddA_cumsum[o] + out.states.ddA_cumsum[o];
  }
  out.grad = chunk_cumsum_backward(p, chunks, cumsum, ddt, ddA_cumsum);
  out.grad.dx = out.gate.dx;
  for (std::size_t e = 0; e < out.grad.dx.size(); ++e) out.grad.dx[e] += out.scan.dx[e] + out.states.dx[e];
  out.grad.dB = out.scan.dB;
  for (std::size_t e = 0; e < out.grad.dB.size(); ++e) out.grad.dB[e] += out.states.dB[e];
  out.grad.dC = out.scan.dC;
  out.grad.dD = out.gate.dD;
  out.grad.dz = out.gate.dz;
  out.grad.dinitial_states = out.passed.dinitial_states;
  return out;
}

Gradients ssd_chunked_backward(const Problem& p, const std::vector<double>& dy,
                               const std::vector<double>& dfinal_states, std::int64_t chunk_size) {
  return ssd_chunked_backward_stages(p, dy, dfinal_states, chunk_size).grad;
}

}  // namespace ch10

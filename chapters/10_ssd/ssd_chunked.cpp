#include "ssd_chunked.hpp"

#include "ssd_reference.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace ch10 {

Chunking chunking(const Problem& p, std::int64_t chunk_size) {
  if (chunk_size < 1)
    throw std::invalid_argument("ch10 SSD: chunk_size must be at least 1, got " + std::to_string(chunk_size));
  return Chunking{p.shape.seqlen, std::min(chunk_size, p.shape.seqlen)};
}

// [snippet:chunk_cumsum]
ChunkCumsum chunk_cumsum(const Problem& p, const Chunking& chunks) {
  const Shape& s = p.shape;
  const Index at{s};
  const ChunkIndex ct{s, chunks};
  const std::vector<double> steps = step_sizes(p);
  ChunkCumsum out{std::vector<double>(steps.size()), std::vector<double>(steps.size())};
  for (std::int64_t b = 0; b < s.batch; ++b)
    for (int h = 0; h < s.heads; ++h)
      for (std::int64_t c = 0; c < chunks.count(); ++c) {
        double sum = 0.0;
        for (std::int64_t t = chunks.begin(c); t < chunks.end(c); ++t) {
          const double dt = steps[at.dt(b, t, h)];
          sum += dt * p.A[std::size_t(h)];
          out.dt[ct.cumsum(b, h, t)] = dt;
          out.dA_cumsum[ct.cumsum(b, h, t)] = sum;
        }
      }
  return out;
}
// [/snippet:chunk_cumsum]

// [snippet:chunk_states]
std::vector<double> chunk_states(const Problem& p, const Chunking& chunks, const ChunkCumsum& cumsum) {
  const Shape& s = p.shape;
  const Index at{s};
  const ChunkIndex ct{s, chunks};
  std::vector<double> states(ct.states_size(), 0.0);
  for (std::int64_t b = 0; b < s.batch; ++b)
    for (std::int64_t c = 0; c < chunks.count(); ++c) {
      const std::int64_t last = chunks.end(c) - 1;
      for (int h = 0; h < s.heads; ++h) {
        const int g = at.group(h);
        const double acs_last = cumsum.dA_cumsum[ct.cumsum(b, h, last)];
        for (std::int64_t j = chunks.begin(c); j <= last; ++j) {
          if (sequence_number(p, b, j) != sequence_number(p, b, last)) continue;
          // x_j scaled by its step and by its decay to the chunk's end: one column of a (p × q)(q × n) product.
          const double scale =
              std::exp(acs_last - cumsum.dA_cumsum[ct.cumsum(b, h, j)]) * cumsum.dt[ct.cumsum(b, h, j)];
          for (int i = 0; i < s.head_dim; ++i)
            for (int k = 0; k < s.dstate; ++k)
              states[ct.state(b, c, h, i, k)] += scale * p.x[at.x(b, j, h, i)] * p.B[at.bc(b, j, g, k)];
        }
      }
    }
  return states;
}
// [/snippet:chunk_states]

// [snippet:pass_states]
PassedStates pass_states(const Problem& p, const Chunking& chunks, const ChunkCumsum& cumsum,
                         const std::vector<double>& states) {
  const Shape& s = p.shape;
  const Index at{s};
  const ChunkIndex ct{s, chunks};
  PassedStates out{std::vector<double>(ct.states_size()), std::vector<double>(at.state_size())};
  for (std::int64_t b = 0; b < s.batch; ++b)
    for (int h = 0; h < s.heads; ++h)
      for (int i = 0; i < s.head_dim; ++i)
        for (int k = 0; k < s.dstate; ++k) {
          double state = p.initial_states.empty() ? 0.0 : p.initial_states[at.state(b, h, i, k)];
          for (std::int64_t c = 0; c < chunks.count(); ++c) {
            out.entering[ct.state(b, c, h, i, k)] = state;
            const std::int64_t last = chunks.end(c) - 1;
            // The state passes through the whole chunk only where no sequence starts inside it.
            const bool carries = sequence_number(p, b, last) == sequence_number(p, b, chunks.begin(c) - 1);
            const double decay = carries ? std::exp(cumsum.dA_cumsum[ct.cumsum(b, h, last)]) : 0.0;
            state = decay * state + states[ct.state(b, c, h, i, k)];
          }
          out.final_states[at.state(b, h, i, k)] = state;
        }
  return out;
}
// [/snippet:pass_states]

std::vector<double> chunk_cb(const Problem& p, const Chunking& chunks) {
  const Shape& s = p.shape;
  const Index at{s};
  const ChunkIndex ct{s, chunks};
  std::vector<double> cb(std::size_t(s.batch * chunks.count() * s.groups) * std::size_t(chunks.size * chunks.size),
                         0.0);
  for (std::int64_t b = 0; b < s.batch; ++b)
    for (std::int64_t c = 0; c < chunks.count(); ++c)
      for (int g = 0; g < s.groups; ++g)
        for (std::int64_t i = chunks.begin(c); i < chunks.end(c); ++i)
          for (std::int64_t j = chunks.begin(c); j < chunks.end(c); ++j) {
            double sum = 0.0;
            for (int k = 0; k < s.dstate; ++k) sum += p.C[at.bc(b, i, g, k)] * p.B[at.bc(b, j, g, k)];
            cb[ct.cb(b, c, g, i - chunks.begin(c), j - chunks.begin(c))] = sum;
          }
  return cb;
}

// [snippet:chunk_scan]
std::vector<double> chunk_scan(const Problem& p, const Chunking& chunks, const ChunkCumsum& cumsum,
                               const std::vector<double>& cb, const PassedStates& passed) {
  const Shape& s = p.shape;
  const Index at{s};
  const ChunkIndex ct{s, chunks};
  std::vector<double> y(at.x_size());
  for (std::int64_t b = 0; b < s.batch; ++b)
    for (std::int64_t c = 0; c < chunks.count(); ++c) {
      const std::int64_t first = chunks.begin(c);
      for (int h = 0; h < s.heads; ++h) {
        const int g = at.group(h);
        for (std::int64_t t = first; t < chunks.end(c); ++t) {
          const double acs_t = cumsum.dA_cumsum[ct.cumsum(b, h, t)];
          // The state-to-output term's weight: exp(acs_t) where the entering state reaches t.
          const bool reached = sequence_number(p, b, t) == sequence_number(p, b, first - 1);
          const double from_before = reached ? std::exp(acs_t) : 0.0;
          for (int i = 0; i < s.head_dim; ++i) {
            double u = 0.0;
            for (std::int64_t j = first; j <= t; ++j) {
              if (sequence_number(p, b, j) != sequence_number(p, b, t)) continue;
              const double w = std::exp(acs_t - cumsum.dA_cumsum[ct.cumsum(b, h, j)]) *
                               cb[ct.cb(b, c, g, t - first, j - first)] * cumsum.dt[ct.cumsum(b, h, j)];
              u += w * p.x[at.x(b, j, h, i)];
            }
            double carried = 0.0;
            for (int k = 0; k < s.dstate; ++k)
              carried += p.C[at.bc(b, t, g, k)] * passed.entering[ct.state(b, c, h, i, k)];
            const std::size_t e = at.x(b, t, h, i);
            y[e] = gated(p, e, u + from_before * carried + skip_weight(p, h, i) * p.x[e]);
          }
        }
      }
    }
  return y;
}
// [/snippet:chunk_scan]

Forward ssd_chunked(const Problem& p, std::int64_t chunk_size) {
  validate(p);
  const Chunking chunks = chunking(p, chunk_size);
  const ChunkCumsum cumsum = chunk_cumsum(p, chunks);
  const PassedStates passed = pass_states(p, chunks, cumsum, chunk_states(p, chunks, cumsum));
  return Forward{chunk_scan(p, chunks, cumsum, chunk_cb(p, chunks), passed), passed.final_states};
}

}  // namespace ch10

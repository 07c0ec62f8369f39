#include "slices.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ch11 {

namespace {

// The granule split and split_for_forward cut on: 1 where seqlen holds fewer than `ranks`.
std::int64_t usable_granule(std::int64_t seqlen, int ranks, std::int64_t granule) {
  if (ranks < 1 || ranks > seqlen)
    throw std::invalid_argument("ch11: " + std::to_string(ranks) + " ranks cannot share " + std::to_string(seqlen) +
                                " positions (1 to seqlen ranks)");
  if (granule < 1) throw std::invalid_argument("ch11: slices cut on multiples of " + std::to_string(granule));
  return seqlen / granule < ranks ? 1 : granule;
}

}  // namespace

std::vector<Slice> split(std::int64_t seqlen, int ranks, std::int64_t granule) {
  granule = usable_granule(seqlen, ranks, granule);
  const std::int64_t granules = seqlen / granule;
  std::vector<Slice> slices;
  std::int64_t begin = 0;
  for (int r = 0; r < ranks; ++r) {
    const std::int64_t length = (granules / ranks + (r < granules % ranks ? 1 : 0)) * granule;
    slices.push_back({begin, r == ranks - 1 ? seqlen : begin + length});
    begin += length;
  }
  return slices;
}

std::vector<Slice> split_for_forward(std::int64_t seqlen, int ranks, std::int64_t granule) {
  granule = usable_granule(seqlen, ranks, granule);
  if (ranks == 1) return split(seqlen, ranks, granule);
  const std::int64_t granules = seqlen / granule;
  const std::int64_t first =
      granule * std::max<std::int64_t>(1, std::min(granules - (ranks - 1), 2 * granules / (ranks + 1)));
  std::vector<Slice> slices{{0, first}};
  for (const Slice& rest : split(seqlen - first, ranks - 1, granule))
    slices.push_back({first + rest.begin, first + rest.end});
  return slices;
}

std::vector<double> cut(const std::vector<double>& v, std::int64_t rows, std::int64_t seqlen, const Slice& s) {
  std::vector<double> out;
  if (v.empty()) return out;
  out.reserve(std::size_t(rows * s.length()));
  for (std::int64_t row = 0; row < rows; ++row)
    out.insert(out.end(), v.begin() + std::ptrdiff_t(row * seqlen + s.begin),
               v.begin() + std::ptrdiff_t(row * seqlen + s.end));
  return out;
}

std::vector<double> joined(const std::vector<std::vector<double>>& pieces, std::int64_t rows) {
  std::vector<double> out;
  for (std::int64_t row = 0; row < rows; ++row)
    for (const std::vector<double>& piece : pieces) {
      const std::size_t length = piece.size() / std::size_t(rows);
      out.insert(out.end(), piece.begin() + std::ptrdiff_t(std::size_t(row) * length),
                 piece.begin() + std::ptrdiff_t(std::size_t(row + 1) * length));
    }
  return out;
}

namespace {

std::vector<ch08::Complex> cut_complex(const std::vector<ch08::Complex>& v, std::int64_t rows, std::int64_t seqlen,
                                       const Slice& s) {
  std::vector<ch08::Complex> out;
  for (std::int64_t row = 0; row < rows; ++row)
    out.insert(out.end(), v.begin() + std::ptrdiff_t(row * seqlen + s.begin),
               v.begin() + std::ptrdiff_t(row * seqlen + s.end));
  return out;
}

}  // namespace

ch08::Problem slice_of(const ch08::Problem& p, const Slice& s, const std::vector<double>& entering) {
  ch08::Problem q = p;
  q.seqlen = s.length();
  const std::int64_t rows = p.batch * p.dim, projection_rows = p.batch * p.groups * p.dstate;
  q.u = cut(p.u, rows, p.seqlen, s);
  q.delta = cut(p.delta, rows, p.seqlen, s);
  q.z = cut(p.z, rows, p.seqlen, s);
  q.B = cut_complex(p.B, projection_rows, p.seqlen, s);
  q.C = cut_complex(p.C, projection_rows, p.seqlen, s);
  q.has_initial_state = !entering.empty();
  q.initial_state.assign(entering.begin(), entering.end());
  return q;
}

std::vector<double> real_parts(const std::vector<ch08::Complex>& v) {
  std::vector<double> out(v.size());
  for (std::size_t e = 0; e < v.size(); ++e) out[e] = v[e].real();
  return out;
}

void require_supported(const ch08::Problem& p) {
  if (p.complex) throw std::invalid_argument("ch11: the sliced scan takes real A (Mamba's), not complex");
  if (!p.variable_B || !p.variable_C)
    throw std::invalid_argument("ch11: the sliced scan takes B and C variable along time (Mamba's)");
}

}  // namespace ch11

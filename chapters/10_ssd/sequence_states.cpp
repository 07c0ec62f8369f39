#include "sequence_states.hpp"

#include "ssd_reference.hpp"

#include <stdexcept>
#include <string>

namespace ch10 {
namespace {

// Positions [begin, end) of a per-position tensor of batch 1 with `width` numbers a position.
std::vector<double> positions(const std::vector<double>& v, std::int64_t begin, std::int64_t end, std::size_t width) {
  if (v.empty()) return {};
  return {v.begin() + std::ptrdiff_t(std::size_t(begin) * width), v.begin() + std::ptrdiff_t(std::size_t(end) * width)};
}

}  // namespace

std::vector<std::int64_t> sequence_starts(const Problem& p) {
  if (p.shape.batch != 1) throw std::invalid_argument("ch10: packed sequences' final states take batch 1");
  if (p.seq_idx.empty()) throw std::invalid_argument("ch10: packed sequences' final states need seq_idx");
  std::vector<std::int64_t> starts{0};
  std::int64_t number = 0;
  for (std::int64_t t = 0; t < p.shape.seqlen; ++t) {
    const std::int64_t at = p.seq_idx[std::size_t(t)];
    if (t == 0 && at != 0) throw std::invalid_argument("ch10: seq_idx must number the first sequence 0");
    if (at == number) continue;
    if (at != number + 1)
      throw std::invalid_argument("ch10: seq_idx must number the sequences 0, 1, 2, ... (" + std::to_string(number) +
                                  " then " + std::to_string(at) + " at position " + std::to_string(t) + ")");
    number = at;
    starts.push_back(t);
  }
  starts.push_back(p.shape.seqlen);
  return starts;
}

std::vector<double> sequence_final_states(const Problem& p) {
  const std::vector<std::int64_t> starts = sequence_starts(p);
  const Shape& s = p.shape;
  std::vector<double> out;
  for (std::size_t n = 0; n + 1 < starts.size(); ++n) {
    const std::int64_t begin = starts[n], end = starts[n + 1];
    // Built field by field: a copy of the packed problem for each sequence would copy the whole
    // row's tensors as many times.
    Problem one;
    one.shape = s;
    one.shape.seqlen = end - begin;
    const std::size_t width = std::size_t(s.heads) * s.head_dim, projection = std::size_t(s.groups) * s.dstate;
    one.x = positions(p.x, begin, end, width);
    one.z = positions(p.z, begin, end, width);
    one.dt = positions(p.dt, begin, end, std::size_t(s.heads));
    one.B = positions(p.B, begin, end, projection);
    one.C = positions(p.C, begin, end, projection);
    one.A = p.A, one.D = p.D, one.dt_bias = p.dt_bias;
    one.dt_softplus = p.dt_softplus, one.dt_limit = p.dt_limit;
    if (n == 0) one.initial_states = p.initial_states;
    const std::vector<double> final_states = ssd_recurrence(one).final_states;
    out.insert(out.end(), final_states.begin(), final_states.end());
  }
  return out;
}

}  // namespace ch10

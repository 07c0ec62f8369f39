// Small helpers shared by chapter 10's tests.
#pragma once

#include "check_close.hpp"
#include "compare.hpp"
#include "ssd_problem.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace ch10_test {

// A problem of these sizes with every option off (the tests switch them on).
inline ch10::ProblemSpec spec_of(std::int64_t batch, std::int64_t seqlen, int heads, int groups, int head_dim,
                                 int dstate) {
  ch10::ProblemSpec spec;
  spec.shape = {batch, seqlen, heads, head_dim, groups, dstate};
  return spec;
}

// count draws of N(0, 1) from the seed: the loss's weights dy (and dfinal_states) of the tests.
inline std::vector<double> normals(std::size_t count, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<double> v(count);
  for (double& value : v) value = normal(rng);
  return v;
}

// "b 2, L 37, h 4, g 2, p 5, n 16, D per channel, z, softplus, dt_bias, limit [0.005, 0.05],
// initial states, packed {1 7 29 | 37}": the problem a failure happened on.
inline std::string describe(const ch10::ProblemSpec& spec) {
  const ch10::Shape& s = spec.shape;
  std::ostringstream out;
  out << "b " << s.batch << ", L " << s.seqlen << ", h " << s.heads << ", g " << s.groups << ", p " << s.head_dim
      << ", n " << s.dstate;
  if (spec.D == ch10::DForm::per_head) out << ", D per head";
  if (spec.D == ch10::DForm::per_channel) out << ", D per channel";
  if (spec.z) out << ", z";
  if (spec.dt_softplus) out << ", softplus";
  if (spec.dt_bias) out << ", dt_bias";
  if (spec.dt_limit.lo != ch10::DtLimit{}.lo || spec.dt_limit.hi != ch10::DtLimit{}.hi)
    out << ", limit [" << spec.dt_limit.lo << ", " << spec.dt_limit.hi << "]";
  if (spec.initial_states) out << ", initial states";
  if (!spec.packing.empty()) {
    out << ", packed {";
    for (std::size_t row = 0; row < spec.packing.size(); ++row) {
      if (row > 0) out << " |";
      for (std::int64_t length : spec.packing[row]) out << ' ' << length;
    }
    out << " }";
  }
  return out.str();
}

// Positions [begin, end) of a tensor laid out (batch, seqlen, per_position).
inline std::vector<double> time_slice(const std::vector<double>& v, const ch10::Shape& s, std::int64_t per_position,
                                      std::int64_t begin, std::int64_t end) {
  std::vector<double> out;
  if (v.empty()) return out;
  for (std::int64_t b = 0; b < s.batch; ++b)
    for (std::int64_t t = begin; t < end; ++t)
      for (std::int64_t e = 0; e < per_position; ++e)
        out.push_back(v[std::size_t((b * s.seqlen + t) * per_position + e)]);
  return out;
}

// Positions [begin, end) of a tensor laid out as x (x, z, y, dy).
inline std::vector<double> x_slice(const ch10::Problem& p, const std::vector<double>& v, std::int64_t begin,
                                   std::int64_t end) {
  return time_slice(v, p.shape, std::int64_t(p.shape.heads) * p.shape.head_dim, begin, end);
}

// Positions [begin, end) of every sequence tensor of p (x, dt, B, C, z, seq_idx), the rest as it
// is. seq_idx is renumbered from the position before `begin`, so that a sequence running through
// `begin` keeps the number 0 and takes over initial states given to the slice.
inline ch10::Problem slice(const ch10::Problem& p, std::int64_t begin, std::int64_t end) {
  const ch10::Shape& s = p.shape;
  ch10::Problem q = p;
  q.shape.seqlen = end - begin;
  q.x = x_slice(p, p.x, begin, end);
  q.z = x_slice(p, p.z, begin, end);
  q.dt = time_slice(p.dt, s, s.heads, begin, end);
  q.B = time_slice(p.B, s, std::int64_t(s.groups) * s.dstate, begin, end);
  q.C = time_slice(p.C, s, std::int64_t(s.groups) * s.dstate, begin, end);
  q.seq_idx.clear();
  if (!p.seq_idx.empty())
    for (std::int64_t b = 0; b < s.batch; ++b) {
      const std::int64_t before = begin == 0 ? 0 : p.seq_idx[std::size_t(b * s.seqlen + begin - 1)];
      for (std::int64_t t = begin; t < end; ++t) q.seq_idx.push_back(p.seq_idx[std::size_t(b * s.seqlen + t)] - before);
    }
  return q;
}

// One tensor of two consecutive slices (batch rows outermost, time next) put back together: the
// inverse of `slice` for that tensor.
inline std::vector<double> joined(const std::vector<double>& first, const std::vector<double>& second,
                                  std::int64_t batch) {
  const std::size_t first_row = first.size() / std::size_t(batch), second_row = second.size() / std::size_t(batch);
  std::vector<double> out;
  for (std::int64_t b = 0; b < batch; ++b) {
    out.insert(out.end(), first.begin() + std::ptrdiff_t(b * first_row),
               first.begin() + std::ptrdiff_t((b + 1) * first_row));
    out.insert(out.end(), second.begin() + std::ptrdiff_t(b * second_row),
               second.begin() + std::ptrdiff_t((b + 1) * second_row));
  }
  return out;
}

}  // namespace ch10_test

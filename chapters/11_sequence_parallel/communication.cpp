#include "communication.hpp"

#include <stdexcept>

namespace ch11 {
namespace {

constexpr double kFloat = 4;

void require(const ScanShape& s, int ranks) {
  if (ranks < 1 || s.batch < 1 || s.dim < 1 || s.seqlen < 1 || s.dstate < 1 || s.input_bytes < 1)
    throw std::invalid_argument("ch11: every size and the rank count must be at least 1");
}

}  // namespace

Traffic state_passing(const ScanShape& s, int ranks) {
  require(s, ranks);
  const double others = ranks - 1, channels = double(s.batch) * double(s.dim);
  const double summary = channels * (s.dstate + 1) * kFloat;       // last state and Σδ
  const double entering_gradient = channels * s.dstate * kFloat;   // what a slice asks of its carry
  const double weights = double(s.dim) * (s.dstate + 2) * kFloat;  // dA, dD, ddelta_bias
  Traffic t;
  t.forward_bytes = others * summary;
  t.backward_bytes = others * entering_gradient + 2 * others / ranks * weights;
  return t;
}

Traffic moving_channels(const ScanShape& s, int ranks) {
  require(s, ranks);
  const double others = ranks - 1;
  const double slice = double(s.batch) * double(s.seqlen) / ranks;          // positions a rank holds
  const double activation = slice * double(s.dim) * s.input_bytes;          // u, δ, z or y of a slice
  const double projections = 2 * slice * s.dstate * double(s.input_bytes);  // B and C of a slice
  const double to_and_fro = others / ranks;                                 // an all-to-all's share
  Traffic t;
  t.forward_bytes = to_and_fro * 4 * activation + others * projections;  // u, δ, z in; y back; B, C
  // dy in; du, dδ, dz back; dB and dC of the whole sequence reduce-scattered to the slices.
  t.backward_bytes = to_and_fro * 4 * activation + others * projections;
  return t;
}

std::int64_t crossover_seqlen(const ScanShape& s, int ranks) {
  if (ranks < 2) throw std::invalid_argument("ch11: a crossover needs at least 2 ranks");
  ScanShape at = s;
  // moving_channels grows linearly in seqlen from 0, state_passing is constant: bisect.
  std::int64_t lo = 1, hi = 1;
  at.seqlen = hi;
  while (moving_channels(at, ranks).forward_bytes < state_passing(at, ranks).forward_bytes) at.seqlen = hi *= 2;
  while (lo < hi) {
    at.seqlen = (lo + hi) / 2;
    if (moving_channels(at, ranks).forward_bytes < state_passing(at, ranks).forward_bytes)
      lo = at.seqlen + 1;
    else
      hi = at.seqlen;
  }
  return lo;
}

}  // namespace ch11

#include "summaries.hpp"

#include "slices.hpp"
#include "softplus.hpp"

#include <cmath>
#include <stdexcept>

namespace ch11 {

using common::softplus;  // cut at 20, as chapter 08's scan cuts it

Summary summarize(const ch08::Problem& slice) {
  require_supported(slice);
  ch08::Problem from_zero = slice;
  from_zero.has_initial_state = false;
  from_zero.initial_state.clear();
  const ch08::ForwardResult run = ch08::reference_forward(from_zero);

  Summary s;
  const std::size_t states = std::size_t(slice.batch * slice.dim) * std::size_t(slice.dstate);
  s.decay.resize(states);
  s.state.resize(states);
  for (std::int64_t b = 0; b < slice.batch; ++b)
    for (std::int64_t d = 0; d < slice.dim; ++d) {
      // Π_t exp(δ_t A) = exp(A Σ_t δ_t): one sum a channel, whatever the states.
      double steps = 0.0;
      for (std::int64_t t = 0; t < slice.seqlen; ++t) {
        double v = slice.delta[std::size_t((b * slice.dim + d) * slice.seqlen + t)];
        if (slice.has_delta_bias) v += slice.delta_bias[std::size_t(d)];
        steps += slice.delta_softplus ? softplus(v) : v;
      }
      for (int n = 0; n < slice.dstate; ++n) {
        const std::size_t e = std::size_t((b * slice.dim + d) * slice.dstate + n);
        s.decay[e] = std::exp(slice.A[std::size_t(d * slice.dstate + n)].real() * steps);
        s.state[e] = run.last_state[e].real();
      }
    }
  return s;
}

std::vector<double> gradient_after(const std::vector<Summary>& gathered, const std::vector<std::vector<double>>& local,
                                   int rank) {
  const int ranks = int(gathered.size());
  if (rank < 0 || rank >= ranks || int(local.size()) != ranks)
    throw std::invalid_argument("ch11: gradient_after: no such rank, or not one local gradient a rank");
  std::vector<double> g(gathered[0].state.size(), 0.0);
  for (int k = ranks - 1; k > rank; --k)
    for (std::size_t e = 0; e < g.size(); ++e)
      g[e] = local[std::size_t(k)][e] + gathered[std::size_t(k)].decay[e] * g[e];
  return g;
}

}  // namespace ch11

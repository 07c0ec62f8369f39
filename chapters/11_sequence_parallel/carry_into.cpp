// The fold of the gathered summaries (exercise 1's solution).
#include "summaries.hpp"

#include <stdexcept>

namespace ch11 {

std::vector<double> carry_into(const std::vector<Summary>& gathered, int rank, const std::vector<double>& initial) {
  if (rank < 0 || rank >= int(gathered.size())) throw std::invalid_argument("ch11: carry_into: no such rank");
  std::vector<double> h = initial.empty() ? std::vector<double>(gathered[0].state.size(), 0.0) : initial;
  // Slice k maps the state entering it to decay·h + state, element by element; the slices before
  // `rank` run in order, so their maps compose from slice 0 on.
  for (int k = 0; k < rank; ++k)
    for (std::size_t e = 0; e < h.size(); ++e)
      h[e] = gathered[std::size_t(k)].decay[e] * h[e] + gathered[std::size_t(k)].state[e];
  return h;
}

}  // namespace ch11

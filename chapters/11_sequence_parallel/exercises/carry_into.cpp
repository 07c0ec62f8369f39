// Exercise 1: the fold of the gathered summaries.
//
// After the all-gather every rank holds every slice's summary: slice k maps the state h entering
// it to decay_k·h + state_k, element by element (summaries.hpp). Return the state entering slice
// `rank`: `initial` (empty: zero) carried through slices 0 .. rank − 1 in order. Each rank calls
// this for itself; no rank needs the summaries after its own.
// Test it with:  scripts/exercise ch11_sequence_parallel 1
#include "summaries.hpp"

#include <stdexcept>

namespace ch11 {

// [snippet:exercise]
std::vector<double> carry_into(const std::vector<Summary>& gathered, int rank, const std::vector<double>& initial) {
  if (rank < 0 || rank >= int(gathered.size())) throw std::invalid_argument("ch11: carry_into: no such rank");
  // TODO(exercise): fold the summaries of slices 0 .. rank − 1 into the entering state.
  // [/snippet:exercise]
  (void)initial;
  return {};
}

}  // namespace ch11

// Row t of the decay matrix Λ of one (batch row, head): the weights with which the inputs of the
// positions before t reach position t (exercise 1; ssd_quadratic multiplies by them).
#pragma once

#include "ssd_problem.hpp"

#include <cstdint>
#include <vector>

namespace ch10 {

// [snippet:decay_row]
// weights[s] = exp(a_{s+1} + … + a_t) for every s ≤ t whose input reaches position t (no sequence
// starts in s+1..t: carries_state), 0 for the others; `initial` is the weight of the state before
// position 0, exp(a_0 + … + a_t), or 0 where a sequence starts in 0..t. a_k = dt'_k A, with steps
// = step_sizes(p).
struct DecayRow {
  std::vector<double> weights;  // t + 1 of them
  double initial = 0.0;
};
DecayRow decay_row(const Problem& p, const std::vector<double>& steps, std::int64_t b, int h, std::int64_t t);
// [/snippet:decay_row]

}  // namespace ch10

// Row t of the decay matrix (exercise 1's solution).
#include "decay_row.hpp"

#include <cmath>

namespace ch10 {

DecayRow decay_row(const Problem& p, const std::vector<double>& steps, std::int64_t b, int h, std::int64_t t) {
  const Index at{p.shape};
  const double A = p.A[std::size_t(h)];
  DecayRow row{std::vector<double>(std::size_t(t) + 1, 0.0), 0.0};
  // The sum runs backwards from the diagonal, as the paper's segment sums: a_{s+1} + … + a_t.
  double segment_sum = 0.0;
  for (std::int64_t s = t;; --s) {
    row.weights[std::size_t(s)] = std::exp(segment_sum);
    if (!carries_state(p, b, s)) return row;  // a sequence starts at s: nothing before it reaches t
    segment_sum += steps[at.dt(b, s, h)] * A;
    if (s == 0) break;
  }
  row.initial = std::exp(segment_sum);
  return row;
}

}  // namespace ch10

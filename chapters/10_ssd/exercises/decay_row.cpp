// Exercise 1: one row of the decay matrix.
//
// In the quadratic form y_t = Σ_{s ≤ t} Λ[t][s] (C_t · B_s) dt'_s x_s + …, the input of position s
// reaches position t decayed by Λ[t][s] = exp(a_{s+1} + … + a_t), a_k = dt'_k A (one A a head):
// the product of the decays of the steps after s. With packed sequences it does not reach t at all
// where a sequence starts after s (carries_state(p, b, k) is false for some k in s+1..t). Return
// row t: its t + 1 weights, and `initial`, the weight of the state before position 0 (exp(a_0 + …
// + a_t), 0 where a sequence starts in 0..t). steps holds dt' for every (b, t, h) (step_sizes(p);
// Index::dt finds one). Summing from the diagonal backwards costs one addition a weight.
// Test it with:  scripts/exercise ch10_ssd 1
#include "decay_row.hpp"

namespace ch10 {

// [snippet:exercise]
DecayRow decay_row(const Problem& p, const std::vector<double>& steps, std::int64_t b, int h, std::int64_t t) {
  DecayRow row{std::vector<double>(std::size_t(t) + 1, 0.0), 0.0};
  // TODO(exercise): fill row.weights and row.initial.
  // [/snippet:exercise]
  (void)p;
  (void)steps;
  (void)b;
  (void)h;
  return row;
}

}  // namespace ch10

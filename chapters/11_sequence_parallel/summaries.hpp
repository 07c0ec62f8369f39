// What a slice of the sequence does to a state that passes through it: for each (b, d, n), the
// slice maps the state h entering it to decay·h + state, where decay is the product of its
// steps' Ā and state what its own inputs leave when it starts from zero -- the pair of chapter
// 06, one level up. A rank computes its slice's summary alone; one all-gather gives every rank
// every summary; each folds the ones before its own into the state entering its slice.
#pragma once

#include "reference.hpp"

#include <vector>

namespace ch11 {

struct Summary {
  std::vector<double> decay, state;  // (batch, dim, dstate)
};

// The summary of a slice's problem (its initial state ignored): decay = exp(A_n Σ_t δ_t), the
// product of the Ā_t = exp(δ_t A_n), and state = the slice's last state from zero.
Summary summarize(const ch08::Problem& slice);

// [snippet:fold]
// Exercise 1 (carry_into.cpp). The state entering slice `rank`: `initial` (empty: zero) carried through the summaries of
// slices 0 .. rank − 1 in order, h ← decay·h + state. Gathered holds every rank's summary.
std::vector<double> carry_into(const std::vector<Summary>& gathered, int rank, const std::vector<double>& initial);
// [/snippet:fold]

// The backward's fold runs the other way: the gradient reaching the end of slice `rank` from
// every later slice, g ← local_k + decay_k·g for k = ranks − 1 down to rank + 1, where local_k is
// what slice k's own outputs ask of the state entering it. Zero for the last slice.
std::vector<double> gradient_after(const std::vector<Summary>& gathered, const std::vector<std::vector<double>>& local,
                                   int rank);

}  // namespace ch11

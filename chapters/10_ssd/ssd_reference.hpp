// Three fp64 forms of the same SSD forward (ssd_problem.hpp defines what they compute). They do
// the same arithmetic in different orders, so they agree to rounding (kFormsTolerance); a GPU
// kernel is checked against any of them.
//
//   ssd_recurrence  the state, step by step: O(L·p·n) a head, and nothing runs in parallel in L.
//   ssd_quadratic   the "attention" form y = (Λ ∘ C Bᵀ)(dt'·x) + D·x, with the decay matrix
//                   Λ[i][j] = exp(dt'_{j+1} A + … + dt'_i A) for j ≤ i in one sequence (else 0),
//                   and the initial states' share C_i · exp(dt'_0 A + … + dt'_i A) h0:
//                   O(L²·(n + p)) a head, all of it matrix products.
//   ssd_chunked     the two mixed (ssd_chunked.hpp): the quadratic form inside chunks of
//                   chunk_size positions, the recurrence across chunks.
#pragma once

#include "compare.hpp"
#include "ssd_problem.hpp"

#include <cstdint>

namespace ch10 {

Forward ssd_recurrence(const Problem& p);
Forward ssd_quadratic(const Problem& p);
// chunk_size ≥ 1; seqlen need not be a multiple of it (the last chunk is shorter).
Forward ssd_chunked(const Problem& p, std::int64_t chunk_size);

// How closely the forms must agree (every output and final state, against the recurrence): on
// the tests' problems the worst error measured is 4.3e-14 (for outputs up to 45), under 5% of
// this bound; a form that misses a term (a decay, a reset, the initial states' share) is off by
// 1e-3 or more.
constexpr common::Tolerance kFormsTolerance{1e-12, 1e-12};

}  // namespace ch10

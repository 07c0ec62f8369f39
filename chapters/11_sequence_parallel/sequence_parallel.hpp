// sequence_parallel.hpp: chapter 08's selective scan on one sequence cut into slices, one a GPU,
// through NCCL. Each rank calls forward() with chapter 08's parameters for its own slice of
// positions (in rank order: rank 0 holds the first); the rest of the call is the single-GPU one.
//
//   1. the rank's slice scanned from zero (rank 0's from the sequence's initial state, which makes
//      its scan final: it skips step 4): its last state, and Σδ of each channel: the summary;
//   2. one all-gather of every rank's summary (b·d·(n + 1) floats, whatever the length);
//   3. the summaries of the ranks before this one folded into the state entering its slice:
//      h ← exp(A Σδ_k) h + state_k, from 0 (rank 0's summary holds the initial state);
//   4. the slice scanned again from that state: its outputs, and on the last rank the
//      sequence's last state.
// Real A, B and C variable (Mamba's). ForwardParams::initial_state is the whole sequence's, given
// to every rank alike (or to none); last_state is written by the last rank. entering_state
// (optional, (batch, dim, N) fp32): where the forward leaves the state entering the rank's slice,
// which the backward needs. Asynchronous on `stream`, like chapter 08's forward; the scratch it
// needs is ordered on that stream.
//
// The backward mirrors it, the other way along the sequence, with chapter 08's backward:
//   1. the rank's slice backward with nothing handed back from later slices (the last rank's with
//      the sequence's dlast_state, which makes its backward final: it skips step 4): the
//      gradient q that leaves its first step (its dinitial_state), and its Σδ: the summary;
//   2. one all-gather of every rank's summary;
//   3. the summaries of the ranks after this one folded into the gradient handed back across the
//      slice's end: q ← q_k + exp(A Σδ_k) q, from 0 (the last rank's summary holds dlast_state);
//   4. the slice backward again, that gradient as its dlast_state: its gradients;
//   5. the weights' gradients (dA, dD, ddelta_bias) summed over the ranks (an all-reduce).
// BackwardParams::forward is the rank's forward parameters as given to forward(); dlast_state is
// the whole sequence's, given to every rank alike (or to none); dinitial_state is written by rank
// 0, the gradient of the whole sequence's initial state.
#pragma once

#include "selective_scan.hpp"

#include <nccl.h>

#include <string>

namespace sequence_parallel {

struct Slicing {
  ncclComm_t comm = nullptr;  // one rank a GPU, ranks in the sequence's order
};

// The line why a call cannot be sliced (empty when it can): chapter 08's validate() first.
std::string validate(const selective_scan::ForwardParams& slice, const Slicing& slicing);
void forward(const selective_scan::ForwardParams& slice, const Slicing& slicing, cudaStream_t stream = nullptr,
             float* entering_state = nullptr);
std::string validate(const selective_scan::BackwardParams& slice, const Slicing& slicing, const float* entering_state);
void backward(const selective_scan::BackwardParams& slice, const Slicing& slicing, const float* entering_state,
              cudaStream_t stream = nullptr);

}  // namespace sequence_parallel

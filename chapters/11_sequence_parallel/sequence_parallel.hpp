// sequence_parallel.hpp: chapter 08's selective scan on one sequence cut into slices, one a GPU,
// through NCCL. Each rank calls forward() with chapter 08's parameters for its own slice of
// positions (in rank order: rank 0 holds the first); the rest of the call is the single-GPU one.
//
//   1. the rank's slice scanned from zero: its last state, and Σδ of each channel: the summary;
//   2. one all-gather of every rank's summary (b·d·(n + 1) floats, whatever the length);
//   3. the summaries of the ranks before this one folded into the state entering its slice:
//      h ← exp(A Σδ_k) h + state_k, from the sequence's initial state (or 0);
//   4. the slice scanned again from that state: its outputs, and on the last rank the
//      sequence's last state.
// Real A, B and C variable (Mamba's). ForwardParams::initial_state is the whole sequence's, given
// to every rank alike (or to none); last_state is written by the last rank. Asynchronous on
// `stream`, like chapter 08's forward; the scratch it needs is ordered on that stream.
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
void forward(const selective_scan::ForwardParams& slice, const Slicing& slicing, cudaStream_t stream = nullptr);

}  // namespace sequence_parallel

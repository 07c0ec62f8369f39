// The selective scan of one sequence cut into slices, one a rank, in fp64: what the GPUs of
// chapter 11 compute, written out on one machine so that every step can be checked against
// chapter 08's reference on the whole sequence.
//
// Forward, on each rank r:  summarize its slice (a scan from zero) → all-gather the summaries →
//   fold those before r into the state entering the slice (carry_into) → scan the slice again
//   from that state, which gives its outputs.
// Backward, on each rank r: its slice's backward from its entering state with nothing coming
//   from later slices, which gives `local`, the gradient its own outputs send to its entering
//   state → all-gather → fold those after r into the gradient reaching the slice's end
//   (gradient_after) → the slice's backward again with that gradient of its last state.
//   Parameter gradients (dA, dD, ddelta_bias) are then summed over the ranks: an all-reduce.
#pragma once

#include "reference.hpp"
#include "summaries.hpp"

#include <vector>

namespace ch11 {

// Chapter 08's backward of one slice, with a gradient of the slice's last state coming in
// (dlast, (batch, dim, dstate); empty: zero). Real A, B and C variable. dinitial_state is always
// filled: the gradient of the state entering the slice.
ch08::Gradients slice_backward(const ch08::Problem& slice, const std::vector<double>& dout,
                               const std::vector<double>& dlast);

struct SlicedForward {
  std::vector<double> out, out_z;             // (batch, dim, seqlen), as reference_forward's
  std::vector<double> last_state;             // (batch, dim, dstate): the last rank's
  std::vector<Summary> summaries;             // what the all-gather carries, one a rank
  std::vector<std::vector<double>> entering;  // the state entering each rank's slice
};

SlicedForward sliced_forward(const ch08::Problem& p, int ranks);
ch08::Gradients sliced_backward(const ch08::Problem& p, const std::vector<double>& dout, int ranks);

}  // namespace ch11

// What each way of spreading one sequence over P GPUs sends, per GPU and per layer's scan: the
// numbers behind the chapter's choice.
//
//   State passing (this chapter): every rank keeps its slice of L / P positions for everything.
//     Forward: one all-gather of the summaries. A summary is the slice's last state from zero,
//     (b, d, n) floats, and its Σδ, (b, d) floats: the decay exp(A Σδ) is rebuilt from A, which
//     every rank holds. Backward: the same all-gather of what each slice asks of its entering
//     state, (b, d, n) floats, then an all-reduce of the weights' gradients (dA (d, n), dD and
//     ddelta_bias (d)). Neither grows with L.
//   Moving channels (Megatron-LM's context parallelism for Mamba): all-to-all exchanges turn the
//     sequence-split tensors u, δ, z into channel-split ones (whole sequences of d / P channels)
//     and y back; B and C, shared by all channels, are all-gathered whole. Forward: three
//     tensors in, one out; backward: dy in, du, dδ, dz out, and dB, dC (input type) reduce-scattered. Each
//     grows with L / P.
#pragma once

#include <cstdint>

namespace ch11 {

struct ScanShape {
  std::int64_t batch = 1, dim = 1, seqlen = 1;
  int dstate = 16;
  int input_bytes = 2;  // bf16 activations; the summaries are fp32 (4 bytes)
};

struct Traffic {
  double forward_bytes = 0;   // received by one rank
  double backward_bytes = 0;  // received by one rank
};

// Bytes each rank receives, on P ranks (ring collectives: an all-gather receives P − 1 shares; an
// all-reduce of S bytes receives 2 (P − 1) / P · S; an all-to-all (P − 1) / P of what it holds).
Traffic state_passing(const ScanShape& s, int ranks);
Traffic moving_channels(const ScanShape& s, int ranks);

// The shortest sequence on which state passing receives no more than moving channels, forward
// (the summaries do not grow with L; the all-to-all's shares do).
std::int64_t crossover_seqlen(const ScanShape& s, int ranks);

}  // namespace ch11

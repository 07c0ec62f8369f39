// v5_sliced_steps.cuh: the last pass of version 5 past 16 states, where each slice of 16 states
// walks in a block of its own (the backward always, the forward where the channels are few) and
// adds its share of what the states meet in, a step's sums over states, into the workspace; this
// pass then finishes each step from those sums.
#pragma once

#include "reductions.cuh"
#include "scan_args.hpp"

namespace selective_scan::detail {

// [snippet:state_slices]
// A call of dstate states walked as dstate / 16 calls of 16 (rounded up): each slice in the
// 16-state layout, a work item of its own.
constexpr int kSliceStates = 16;
__host__ __device__ inline int state_slices(const ScanArgs& a) { return (a.dstate + kSliceStates - 1) / kSliceStates; }
// [/snippet:state_slices]

// The backward's: step_sums[(channel * 2 + m) * seqlen + t], m = 0 the sum over states of
// A Abar_t h_{t-1} g_t, m = 1 of g_t B_t. Writes du, ddelta and dz (with a gate), and the partial
// sums of dD and ddelta_bias that finish_parameter_gradients() adds over the batch.
template <class Input>
void finish_sliced_steps(const ScanArgs& args, const WorkspaceLayout& workspace, const float* step_sums,
                         cudaStream_t stream);

// The forward's: outputs[channel * seqlen + t], the sum over states of C_t h_t. Writes out (that
// sum plus D u) and out_z (out times silu(z)) with a gate.
template <class Input>
void finish_sliced_outputs(const ScanArgs& args, const float* outputs, cudaStream_t stream);

}  // namespace selective_scan::detail

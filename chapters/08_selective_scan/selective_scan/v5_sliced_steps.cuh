// v5_sliced_steps.cuh: the last pass of version 5's backward past 16 states. Each 16-state slice
// of a channel walks in a block of its own and adds its share of the two sums over states that
// every step needs into step_sums; this pass then finishes the per-step gradients from them.
#pragma once

#include "reductions.cuh"
#include "scan_args.hpp"

namespace selective_scan::detail {

// step_sums[(channel * 2 + m) * seqlen + t]: m = 0 the sum over states of A Abar_t h_{t-1} g_t,
// m = 1 of g_t B_t. Writes du, ddelta and dz (with a gate), and the partial sums of dD and
// ddelta_bias that finish_parameter_gradients() adds over the batch.
template <class Input>
void finish_sliced_steps(const ScanArgs& args, const WorkspaceLayout& workspace, const float* step_sums,
                         cudaStream_t stream);

}  // namespace selective_scan::detail

// step_plan.hpp: how step() lays a call out on the GPU (step_plan.cpp decides, step.cu runs it).
#pragma once

#include "step.hpp"

#include <cstdint>

namespace selective_scan::detail {

constexpr int kStepThreads = 128;  // the most threads a block of the step has
// Blocks that keep every multiprocessor of a large GPU busy (4 for each of an H100's or H200's
// 132): a call with fewer takes smaller blocks where it can.
constexpr std::int64_t kStepFillBlocks = 4 * 132;

// The plan of a call that validate() accepts (nothing is checked here).
StepPlan make_step_plan(const StepParams& params);

}  // namespace selective_scan::detail

// step_plan.hpp: how step() lays a call out on the GPU (step_plan.cpp decides, step.cu runs it).
#pragma once

#include "step.hpp"

namespace selective_scan::detail {

constexpr int kStepThreads = 128;  // the most threads a block of the step has

// The plan of a call that validate() accepts (nothing is checked here).
StepPlan make_step_plan(const StepParams& params);

}  // namespace selective_scan::detail

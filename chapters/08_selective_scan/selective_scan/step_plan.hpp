// step_plan.hpp: how step() lays a call out on the GPU (step_plan.cpp decides, step.cu runs it).
#pragma once

#include "step.hpp"

#include <cstdint>

namespace selective_scan::detail {

constexpr int kStepThreads = 128;  // the most threads a block of the step has
constexpr int kStepVector = 4;     // the states a thread loads at once where the rows allow it
// Blocks of kStepThreads a multiprocessor the kernel's registers must leave room for, where it
// indexes in 32 bits (10: at most 48 registers a thread, 1280 threads of the 2048 a multiprocessor
// holds; 12 would spill): the step is bound by memory, and the loads in flight, a thread's each,
// are what covers the memory's latency. The 64-bit kernels, for tensors past 2^31 elements, are
// left unbounded.
constexpr int kStepBlocksPerSM = 10;
// Blocks that keep every multiprocessor of a large GPU busy (4 for each of an H100's or H200's
// 132): a call with fewer takes smaller blocks where it can.
constexpr std::int64_t kStepFillBlocks = 4 * 132;

// The plan of a call that validate() accepts (nothing is checked here).
StepPlan make_step_plan(const StepParams& params);

}  // namespace selective_scan::detail

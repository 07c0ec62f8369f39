// step_plan.hpp: how step() lays a call out on the GPU (step_plan.cpp decides, step.cu runs it).
#pragma once

#include "step.hpp"

#include <cstdint>

namespace selective_scan::detail {

constexpr int kStepThreads = 128;  // the most threads a block of the step has
// The bytes of state a thread loads at once where the rows allow it: 8 fp32 states or 16 fp16 or
// bf16, two 16-byte loads. The step is bound by memory, and what covers the memory's latency is
// the bytes in flight, each thread's loads: 32 a thread beat 8 and 16 at batch 8 and 64 of
// Mamba-1 and Mamba-2, fp32 and bf16, and 64 lost with fp32 inputs; at batch 1 they tie
// (appendix A).
constexpr int kStepStateBytes = 32;
template <class Stored>
constexpr int kStepVectorOf = kStepStateBytes / int(sizeof(Stored));
// Where the rows are not whole vectors of that width but are of 4 (20 states, rows 8 apart):
// loads of 4 states.
constexpr int kStepNarrowVector = 4;
// Blocks of kStepThreads a multiprocessor the kernel's registers must leave room for, where it
// indexes in 32 bits (6: at most 80 registers a thread, no spills; the wide loads' values need
// them). The 64-bit kernels, for tensors past 2^31 elements, are left unbounded.
constexpr int kStepBlocksPerSM = 6;
// Blocks that keep every multiprocessor of a large GPU busy (4 for each of an H100's or H200's
// 132): a call with fewer takes smaller blocks where it can.
constexpr std::int64_t kStepFillBlocks = 4 * 132;

// The plan of a call that validate() accepts (nothing is checked here).
StepPlan make_step_plan(const StepParams& params);

}  // namespace selective_scan::detail

// device_ssd.hpp: a Problem (ssd_problem.hpp) on the GPU in one input type, run through the ssd
// library, its results brought back as fp64: what chapter 10's tests and program compare with the
// fp64 forms. Every output is poisoned (NaN) before a run.
#pragma once

#include "compare.hpp"
#include "ssd.hpp"
#include "ssd_backward.hpp"
#include "ssd_problem.hpp"
#include "stats.hpp"
#include "timing.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ch10 {

// The inputs as the GPU holds them: x, dt, B, C and z rounded to `type`, the rest to fp32.
Problem as_gpu_sees(Problem p, ssd::DataType type);

// A call of `shape` in `type` with no memory behind it, for questions about its sizes alone
// (ssd::validate, kernel_of, saved_bytes; never forward or backward): each required tensor at an
// address of its own, which the library compares (no output may overlap another tensor) and
// never reads.
ssd::ForwardParams sizes_only(const Shape& shape, ssd::DataType type, ssd::Kernel kernel);
ssd::BackwardParams sizes_only_backward(const Shape& shape, ssd::DataType type, ssd::Kernel kernel);

// Why `kernel` refuses a forward of `shape` in `type` on this GPU, "" where it takes it
// (ssd::validate on sizes_only: no options, nothing touched). Version 3 takes fp32 only
// where a block may have its pairs' shared memory.
std::string gpu_refusal(const Shape& shape, ssd::DataType type, ssd::Kernel kernel);
// The same for a backward whose forward asks for `kernel` (version 3's backward needs more shared
// memory than its forward).
std::string gpu_backward_refusal(const Shape& shape, ssd::DataType type, ssd::Kernel kernel);

// The forward of `p` (as the GPU sees it) by `kernel`: y and the final states.
Forward gpu_forward(const Problem& p, ssd::DataType type, ssd::Kernel kernel, std::int64_t chunk_size = 256);
// Version 3's forward keeping what its backward reads (ForwardParams::saved, poisoned first): y,
// gated after the forward, and the final states.
Forward gpu_forward_saving(const Problem& p, ssd::DataType type);
// Version 2's final states of each packed sequence of `p` (batch 1, seq_idx numbering them 0, 1,
// 2, ...): (sequences, heads, head_dim, dstate), as sequence_final_states (sequence_states.hpp).
std::vector<double> gpu_sequence_final_states(const Problem& p, ssd::DataType type, std::int64_t chunk_size);
// Every gradient of sum(dy · y) (dinitial_states where p has initial states), by the backward of
// `kernel` (ssd.hpp says which runs).
// With `from_saved` (version 3), the forward runs first with `saved`, and the backward reads it
// instead of running the forward again.
Gradients gpu_backward(const Problem& p, ssd::DataType type, const std::vector<double>& dy,
                       ssd::Kernel kernel = ssd::Kernel::recurrence, bool from_saved = false);

// The time of `kernel`'s forward, and of its forward + backward (the backward after a forward, as
// training calls them: version 3's forward keeps what its backward reads, in `saved`; version 1's
// backward runs the forward again), by `timer` (common::GpuTimer: CUDA
// events around the call; KernelTimer: its kernels' own durations; both flush the L2 first), on a
// problem of `spec` (without packing or initial states) whose x, dt, B, C, z and dy are drawn on
// the GPU from N(0, 1), as the official benchmark draws them.
template <class Timer>
common::TimingStats time_gpu_forward(const ProblemSpec& spec, ssd::DataType type, ssd::Kernel kernel,
                                     std::int64_t chunk_size, Timer& timer);
template <class Timer>
common::TimingStats time_gpu_forward_backward(const ProblemSpec& spec, ssd::DataType type, ssd::Kernel kernel,
                                              Timer& timer);

// The bounds a GPU result of `type` is held to against fp64, the absolute part relative to the
// tensor's largest reference value: where a clamp can bite, version 1 rounds dt' to the input type
// before chapter 08's kernel reads it, and the gradients summed over a head's channels and states
// (dA, ddt) are long sums of fp32 terms.
common::Tolerance gpu_tolerance(ssd::DataType type, const std::vector<double>& ref);

}  // namespace ch10

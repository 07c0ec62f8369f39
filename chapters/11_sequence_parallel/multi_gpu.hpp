// multi_gpu.hpp: the sliced scan run on the GPUs of this machine, one thread and one NCCL
// communicator a GPU (ncclCommInitAll), each rank's slice wired up by chapter 08's DeviceProblem:
// what chapter 11's tests and program run. Built where NCCL is found.
#pragma once

#include "compare.hpp"
#include "reference.hpp"
#include "selective_scan.hpp"

#include <nccl.h>

#include <vector>

namespace ch11 {

// The GPUs the CUDA runtime sees (0 without a usable one).
int usable_gpus();

// One communicator a GPU for GPUs 0 .. ranks − 1 (ncclCommInitAll), NVLink multicast kept off
// (NCCL_NVLS_ENABLE=0, the GPU machine's rule). Throws when NCCL cannot make them.
std::vector<ncclComm_t> communicators(int ranks);

// The bounds a sliced forward's outputs in `type` are held to against the whole sequence's fp64
// reference: fp32's, or the 16-bit inputs' rounding.
common::Tolerance sliced_tolerance(selective_scan::DataType type);
// A gradient's bounds: sliced_tolerance's with its absolute part scaled by the reference's largest
// value (at least 1), for the weights' gradients are sums over thousands of steps.
common::Tolerance sliced_gradient_tolerance(selective_scan::DataType type, const std::vector<double>& reference);

// One sliced forward of `p` (inputs as the GPU holds them) on GPUs 0 .. ranks − 1: each rank's
// out, out_z and last state, in rank order.
std::vector<ch08::ForwardResult> run_sliced(const ch08::Problem& p, selective_scan::DataType type, int ranks);

// One sliced forward and backward of `p` on GPUs 0 .. ranks − 1, the loss's gradients dout (of the
// whole sequence's out_z, or out without z) and dlast (of its last state; empty: none): each
// rank's outputs and gradients, in rank order. Every rank's dA, dD and ddelta_bias are the whole
// sequence's (summed over the ranks); rank 0's dinitial_state is the sequence's.
struct SlicedRun {
  ch08::ForwardResult forward;
  ch08::Gradients gradients;
};
std::vector<SlicedRun> run_sliced_backward(const ch08::Problem& p, selective_scan::DataType type, int ranks,
                                           const std::vector<double>& dout, const std::vector<ch08::Complex>& dlast);

}  // namespace ch11

// The batched convolution problem the GPU versions solve, and how their fp32 results are
// held to the fp64 reference.
#pragma once

#include "compare.hpp"

#include <cstdint>
#include <vector>

namespace conv {

struct ConvProblem {
  int batch = 0;
  int channels = 0;
  int n = 0;
  std::vector<double> t;  // channels × n
  std::vector<double> x;  // batch × channels × n
};

// t ~ N(0, 1/n) with no structure at all, so that an output read from a wrong lag or a wrong
// channel is wrong by a lot; x ~ N(0, 1).
ConvProblem random_problem(int batch, int channels, int n, std::uint64_t seed);

// Each channel's t is the kernel K̄ of its own random 16-state diagonal SSM (conjugate pairs,
// step Δ drawn per channel as in Mamba); x ~ N(0, 1).
ConvProblem ssm_problem(int batch, int channels, int n, std::uint64_t seed);

// fp32 against fp64 for a sum of up to n products: |err| ≤ atol + rtol·|ref| with
// rtol = 1e-4 and atol = 1e-5 · max(1, log2 n) · max|ref|. A summation in fp32 (direct or
// through an FFT) errs by a few units of 6e-8 times the size of the partial sums, which grows
// slowly with n; an output from a wrong lag or channel is off by about max|ref| itself.
common::Tolerance fp32_tolerance(const std::vector<double>& reference, int n);

}  // namespace conv

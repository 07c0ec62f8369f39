// A Mamba-shaped discretization problem on the host: Δ (batch, L, D), A (D, N), B (batch, L, N),
// in fp32 as the GPU gets them, and the fp64 reference for Ā and B̄ (batch, L, D, N).
#pragma once

#include "compare.hpp"
#include "zoh_kernels.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace zoh {

struct SelectiveShape {
  int batch = 1;
  int length = 1;    // L
  int channels = 1;  // D
  int state = 1;     // N
  std::size_t tokens() const { return std::size_t(batch) * length; }
  std::size_t count() const { return tokens() * channels * state; }
  // The least a kernel must move: both outputs written once, every input read once.
  //   bytes = 4 · (2 · batch·L·D·N  +  batch·L·D  +  D·N  +  batch·L·N)
  double bytes_moved() const;
};

struct SelectiveProblem {
  SelectiveShape shape;
  std::vector<float> delta;  // (batch, L, D)
  std::vector<float> A;      // (D, N)
  std::vector<float> B;      // (batch, L, N)
};

// Δ log-uniform in [delta_min, delta_max] (Mamba initialises its Δ so, in [0.001, 0.1]);
// A = S4D-Real's −(n + 1), scaled per (d, n) by a random factor in [0.5, 1.5] so that a kernel
// that mixes up d and n is caught; B ~ N(0, 1).
SelectiveProblem random_selective_problem(SelectiveShape shape, std::uint64_t seed, double delta_min = 1e-3,
                                          double delta_max = 1e-1);

// Ā and B̄ in fp64 from the same fp32 inputs, for the first `tokens` (b, l) pairs (all by
// default): (tokens, D, N) each.
struct SelectiveResult {
  std::vector<double> abar;
  std::vector<double> bbar;
};
SelectiveResult discretize_selective_reference(const SelectiveProblem& p, Rule rule, std::size_t tokens = SIZE_MAX);

// The largest |Δ·a| of the problem.
double max_abs_z(const SelectiveProblem& p);

// The tolerance for an fp32 kernel against fp64, from the error bound the chapter derives:
// every step of the arithmetic is one rounding (2⁻²⁴ relative) or a library function good to
// 1–2 ulp, and rounding the argument z = Δa moves exp(z) by |z|·2⁻²⁴ relative (twice that
// for exp2f, whose argument is rounded twice). Total: rtol = (6 + 2·z_max)·2⁻²⁴.
common::Tolerance fp32_tolerance(double z_max);

}  // namespace zoh

// The one rule that judges a GPU run against the fp64 reference, tensor by tensor: the official
// suite's tolerances (tolerances.hpp), and for dA a rounding bound on top (verdict.cpp says why).
// The program's checks and its slice check (sections_checks.cpp, sections_benchmark.cpp) and the
// GPU tests (tests/ch08_selective_scan/scan_check.cpp) all judge with it.
#pragma once

#include "compare.hpp"
#include "reference.hpp"
#include "tolerances.hpp"

#include <string>
#include <vector>

namespace ch08 {

struct TensorVerdict {
  std::string name;
  bool ok = true;
  std::string detail;  // the comparison's summary: its largest errors, and where it failed the worst
  double used = 0;     // how far into its bound the element nearest it went (1 = at the bound)
};

// (re, im) pairs for a complex problem, the real parts alone for a real one: how the verdict
// and the program's checks lay out a tensor of states.
std::vector<double> flatten(const std::vector<Complex>& values, bool complex);

// |got − expected| ≤ tol.atol + tol.rtol·|expected| + rounding[i] for every element; NaN and Inf
// fail, and so does a tensor with no elements. rounding empty: no bound on top.
TensorVerdict judge_tensor(const std::string& name, const std::vector<double>& got, const std::vector<double>& expected,
                           common::Tolerance tol, const std::vector<double>& rounding = {});

// dA's rounding bound, 2^-24 √seqlen Σ|terms| for each element of expected.dA (its real and
// imaginary parts in turn where p is complex, as the tensors are compared).
std::vector<double> dA_rounding(const Problem& p, const Gradients& expected);

// Every output and gradient of one run that p has (out, out_z, last_state, du, ddelta, dz, dA, dB,
// dC, dD, ddelta_bias, dinitial_state), each against the reference under its tolerance in tol.
std::vector<TensorVerdict> judge_run(const Problem& p, const OfficialTolerances& tol, const ForwardResult& got,
                                     const ForwardResult& expected, const Gradients& got_grad,
                                     const Gradients& expected_grad);

}  // namespace ch08

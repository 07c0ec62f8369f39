// Gradients of reference_loss by central differences, in fp64: the independent check of every
// formula of the backward (the program's section [5] and the tests).
#pragma once

#include "compare.hpp"
#include "reference.hpp"

#include <vector>

namespace ch08 {

// The step h of (L(x + h) − L(x − h)) / 2h, and the tolerance the analytic gradients meet: three
// times the worst rounding error of the quotient measured on the tests' problems (3.3e-8 for
// losses up to ~160). A wrong backward (a lost factor 2, a missing conjugate, a wrong softplus
// slope) is off by 1e-2 or more.
constexpr double kFiniteDifferenceStep = 1e-6;
constexpr common::Tolerance kFiniteDifferenceTolerance{1e-7, 1e-6};

// The loss is reference_loss(p, dout, dlast_state).
// dL/dx for one number x inside p (p is changed and restored).
double central_difference(Problem& p, double& x, const std::vector<double>& dout,
                          const std::vector<Complex>& dlast_state = {});
// dL/dx for every element of a real field of the problem.
std::vector<double> finite_differences(Problem p, std::vector<double> Problem::*field, const std::vector<double>& dout,
                                       const std::vector<Complex>& dlast_state = {});
// dL/dRe + i dL/dIm for every element of a complex field; a real problem's imaginary parts are
// not inputs and get 0.
std::vector<Complex> finite_differences(Problem p, std::vector<Complex> Problem::*field,
                                        const std::vector<double>& dout, const std::vector<Complex>& dlast_state = {});

}  // namespace ch08

// Gradients of ssd_loss by central differences, in fp64: the independent check of every formula
// of ssd_backward (the tests, and a later chapter program).
#pragma once

#include "compare.hpp"
#include "ssd_backward.hpp"
#include "ssd_problem.hpp"

#include <vector>

namespace ch10 {

// The step h of (L(v + h) − L(v − h)) / 2h, and the tolerance the analytic gradients meet against
// it: the worst error of the quotient measured on the tests' problems is 8.3e-9 (losses near 19),
// twelve times below atol; a wrong term of the backward is off by 1e-3 or more.
constexpr double kFiniteDifferenceStep = 1e-6;
constexpr common::Tolerance kFiniteDifferenceTolerance{1e-7, 1e-6};

// ∂L/∂v for every element v of one input tensor of p (p itself is not changed).
std::vector<double> finite_differences(const Problem& p, std::vector<double> Problem::*field,
                                       const std::vector<double>& dy, const std::vector<double>& dfinal_states = {});

}  // namespace ch10

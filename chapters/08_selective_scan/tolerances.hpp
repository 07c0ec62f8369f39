// The official test suite's tolerances (state-spaces/mamba tests/ops/test_selective_scan.py;
// official_baseline.md lists them with the commit): |got − ref| ≤ atol + rtol·|ref| for every
// output and gradient of a kernel against the fp64 reference. The chapter's program and its GPU tests hold
// every kernel version to these, through one rule (verdict.hpp), which adds a rounding bound for dA.
#pragma once

#include "compare.hpp"
#include "reference.hpp"
#include "selective_scan.hpp"

namespace ch08 {

struct OfficialTolerances {
  common::Tolerance out, last_state, du, ddelta, dz, dA, dB, dC, dD, ddelta_bias, dinitial_state;
};

// By input type, and by the problem's flags: the weights' tolerances are raised to the
// sequences' when z is present, and a constant B or C is held as a weight.
OfficialTolerances official_tolerances(selective_scan::DataType type, const Problem& p);

}  // namespace ch08

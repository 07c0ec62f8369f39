#include "tolerances.hpp"

#include <algorithm>

namespace ch08 {

OfficialTolerances official_tolerances(selective_scan::DataType type, const Problem& p) {
  double rtol = 6e-4, atol = 2e-3;
  if (type == selective_scan::DataType::float16) rtol = 3e-3, atol = 5e-3;
  if (type == selective_scan::DataType::bfloat16) rtol = 3e-2, atol = 5e-2;
  double rtolw = 1e-3, atolw = 1e-3;
  if (p.has_z) rtolw = std::max(rtolw, rtol), atolw = std::max(atolw, atol);
  OfficialTolerances t;
  t.out = t.last_state = {atol, rtol};
  t.du = {2 * atol, 2 * rtol};
  t.ddelta = {10 * atol, 5 * rtol};
  t.dA = {5 * atolw, rtolw};
  t.dB = p.variable_B ? common::Tolerance{atol, rtol} : common::Tolerance{atolw, rtolw};
  t.dC = p.variable_C ? common::Tolerance{atol, rtol} : common::Tolerance{atolw, rtolw};
  t.dD = t.dz = t.ddelta_bias = {atolw, rtolw};
  t.dinitial_state = {atol, rtol};  // not in the official suite: the forward's tolerance
  return t;
}

}  // namespace ch08

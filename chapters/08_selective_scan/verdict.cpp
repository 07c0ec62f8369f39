#include "verdict.hpp"

#include "check_group.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>

namespace ch08 {

std::vector<double> flatten(const std::vector<Complex>& values, bool complex) {
  std::vector<double> out;
  out.reserve(values.size() * (complex ? 2 : 1));
  for (const Complex& v : values) {
    out.push_back(v.real());
    if (complex) out.push_back(v.imag());
  }
  return out;
}

TensorVerdict judge_tensor(const std::string& name, const std::vector<double>& got, const std::vector<double>& expected,
                           common::Tolerance tol, const std::vector<double>& rounding) {
  const common::Comparison c = common::compare(got, expected, tol);
  if (rounding.empty()) return {name, c.ok, c.summary(), bound_used(got, expected, tol)};
  if (rounding.size() != expected.size())
    throw std::invalid_argument(
        fmt::format("judge_tensor: {} rounding bounds for {} values", rounding.size(), expected.size()));
  // The same comparison with the rounding bound added to each element's: the worst element is
  // the first non-finite one, else the one furthest into its bound.
  std::size_t failures = 0, worst = 0;
  double used = 0;
  bool non_finite = false;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!std::isfinite(got[i]) || !std::isfinite(expected[i])) {
      if (!non_finite) worst = i;
      non_finite = true;
      ++failures;
      continue;
    }
    const double ratio = std::abs(got[i] - expected[i]) / (tol.atol + tol.rtol * std::abs(expected[i]) + rounding[i]);
    if (!(ratio <= 1)) ++failures;
    if (!non_finite && ratio > used) worst = i;
    used = std::max(used, ratio);
  }
  TensorVerdict v{name, failures == 0 && !got.empty(), "", used};
  v.detail = fmt::format("max abs err {:.2e}, max rel err {:.2e}; tol atol {:.0e} + rtol {:.0e}·|ref| + rounding bound",
                         c.max_abs_error, c.max_rel_error, tol.atol, tol.rtol);
  if (got.empty())
    v.detail += "; nothing was compared";
  else if (!v.ok)
    v.detail += fmt::format(
        "; {} of {} out of tolerance ({} non-finite); {} at [{}]: expected {:.9g}, got {:.9g}, rounding bound {:.3g}",
        failures, got.size(), c.non_finite, non_finite ? "first non-finite" : "worst", worst, expected[worst],
        got[worst], rounding[worst]);
  return v;
}

// [snippet:dA_bound]
// dA is a sum over batch and time whose terms can cancel by thousands: with A near 0 a state
// remembers the whole sequence, and the terms run to thousands where dA is ~10. Rounding h and g
// to fp32 at every step then errs by about 2^-24 sqrt(seqlen) times the sum of |terms|, past the
// official suite's 1e-3: measured on one case of the grid (seqlen 1134, dA = -10.69 from terms
// summing to 73000 in absolute value), a plain sequential fp32 loop with correctly rounded exp is
// 0.035 off where the suite allows 0.016. So dA gets that rounding bound on top of the official
// tolerance; it is small wherever the terms do not cancel, and a wrong formula still misses it by
// far. The official tolerance alone is the stricter rule, but the GPU tests run that grid and it
// would fail them there; the program's checks take this rule too, so that one rule holds in both.
std::vector<double> dA_rounding(const Problem& p, const Gradients& expected) {
  const double rounding = std::ldexp(1.0, -24) * std::sqrt(double(p.seqlen));
  std::vector<double> bound;
  bound.reserve(expected.dA_terms.size() * (p.complex ? 2 : 1));
  for (const double terms : expected.dA_terms) {
    bound.push_back(rounding * terms);
    if (p.complex) bound.push_back(rounding * terms);
  }
  return bound;
}
// [/snippet:dA_bound]

std::vector<TensorVerdict> judge_run(const Problem& p, const OfficialTolerances& tol, const ForwardResult& got,
                                     const ForwardResult& expected, const Gradients& got_grad,
                                     const Gradients& expected_grad) {
  std::vector<TensorVerdict> v;
  v.push_back(judge_tensor("out", got.out, expected.out, tol.out));
  if (p.has_z) v.push_back(judge_tensor("out_z", got.out_z, expected.out_z, tol.out));
  v.push_back(judge_tensor("last_state", flatten(got.last_state, p.complex), flatten(expected.last_state, p.complex),
                           tol.last_state));
  v.push_back(judge_tensor("du", got_grad.du, expected_grad.du, tol.du));
  v.push_back(judge_tensor("ddelta", got_grad.ddelta, expected_grad.ddelta, tol.ddelta));
  if (p.has_z) v.push_back(judge_tensor("dz", got_grad.dz, expected_grad.dz, tol.dz));
  v.push_back(judge_tensor("dA", flatten(got_grad.dA, p.complex), flatten(expected_grad.dA, p.complex), tol.dA,
                           dA_rounding(p, expected_grad)));
  v.push_back(judge_tensor("dB", flatten(got_grad.dB, p.complex), flatten(expected_grad.dB, p.complex), tol.dB));
  v.push_back(judge_tensor("dC", flatten(got_grad.dC, p.complex), flatten(expected_grad.dC, p.complex), tol.dC));
  if (p.has_D) v.push_back(judge_tensor("dD", got_grad.dD, expected_grad.dD, tol.dD));
  if (p.has_delta_bias)
    v.push_back(judge_tensor("ddelta_bias", got_grad.ddelta_bias, expected_grad.ddelta_bias, tol.ddelta_bias));
  if (p.has_initial_state)
    v.push_back(judge_tensor("dinitial_state", flatten(got_grad.dinitial_state, p.complex),
                             flatten(expected_grad.dinitial_state, p.complex), tol.dinitial_state));
  return v;
}

}  // namespace ch08

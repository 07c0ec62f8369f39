#include "compare.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace common {
namespace {

template <class T>
Comparison compare_impl(std::span<const T> got, std::span<const double> expected, Tolerance tol) {
  if (got.size() != expected.size()) {
    throw std::invalid_argument(
        fmt::format("compare: {} results but {} reference values", got.size(), expected.size()));
  }
  Comparison c;
  c.tolerance = tol;
  c.count = got.size();
  // The worst element is the one furthest past its bound: the largest |error| / bound, and
  // among elements whose bound is 0 (every error is infinitely far past it) the largest error.
  double worst_excess = -1, worst_error = -1;
  bool have_non_finite = false;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g = static_cast<double>(got[i]);
    const double e = expected[i];
    if (!std::isfinite(g) || !std::isfinite(e)) {
      ++c.non_finite;
      ++c.failures;
      if (!have_non_finite) {
        have_non_finite = true;
        c.worst_index = i;
        c.worst_got = g;
        c.worst_expected = e;
      }
      continue;
    }
    const double error = std::fabs(g - e);
    const double bound = tol.atol + tol.rtol * std::fabs(e);
    c.max_abs_error = std::fmax(c.max_abs_error, error);
    if (e != 0) c.max_rel_error = std::fmax(c.max_rel_error, error / std::fabs(e));
    if (!(error <= bound)) ++c.failures;
    const double excess = bound > 0 ? error / bound : (error > 0 ? INFINITY : 0);
    const bool worse = excess > worst_excess || (excess == worst_excess && error > worst_error);
    if (!have_non_finite && worse) {
      worst_excess = excess;
      worst_error = error;
      c.worst_index = i;
      c.worst_got = g;
      c.worst_expected = e;
    }
  }
  c.ok = c.failures == 0 && c.count > 0;  // a check that compares nothing proves nothing
  return c;
}

}  // namespace

Comparison compare(std::span<const float> got, std::span<const double> expected, Tolerance tol) {
  return compare_impl(got, expected, tol);
}

Comparison compare(std::span<const double> got, std::span<const double> expected, Tolerance tol) {
  return compare_impl(got, expected, tol);
}

std::string Comparison::summary(const std::function<std::string(std::size_t)>& where) const {
  std::string text = fmt::format("max abs err {:.2e}, max rel err {:.2e}; tol atol {:.0e} + rtol {:.0e}·|ref|",
                                 max_abs_error, max_rel_error, tolerance.atol, tolerance.rtol);
  if (count == 0) return text + "; nothing was compared";
  if (!ok) {
    const std::string at = where ? where(worst_index) : fmt::format("[{}]", worst_index);
    // A NaN or Inf has no distance to rank: the first one is named.
    const char* which = non_finite > 0 ? "first non-finite" : "worst";
    text += fmt::format("; {} of {} out of tolerance ({} non-finite); {} at {}: expected {:.9g}, got {:.9g}", failures,
                        count, non_finite, which, at, worst_expected, worst_got);
  }
  return text;
}

}  // namespace common

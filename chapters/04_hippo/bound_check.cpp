#include "bound_check.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace s4d {

BoundCheck check_within_bound(std::span<const float> got, std::span<const double> expected,
                              std::span<const double> bound) {
  if (got.size() != expected.size() || got.size() != bound.size())
    throw std::invalid_argument("check_within_bound: sizes differ");
  BoundCheck r;
  r.count = got.size();
  bool non_finite_seen = false;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double error = std::abs(double(got[i]) - expected[i]);
    if (!std::isfinite(error)) {
      ++r.failures;
      if (!non_finite_seen) r.worst_index = i;
      non_finite_seen = true;
      continue;
    }
    const double ratio = error / bound[i];
    if (!(ratio <= 1)) ++r.failures;
    r.max_abs_error = std::max(r.max_abs_error, error);
    if (ratio > r.max_ratio) {
      r.max_ratio = ratio;
      if (!non_finite_seen) r.worst_index = i;
    }
  }
  r.ok = r.failures == 0 && r.count > 0;
  if (r.count > 0) {
    r.worst_got = got[r.worst_index];
    r.worst_expected = expected[r.worst_index];
    r.worst_bound = bound[r.worst_index];
  }
  return r;
}

std::string BoundCheck::summary(const std::function<std::string(std::size_t)>& where) const {
  std::string s = fmt::format("max abs err {:.1e}, max err/bound {:.2g} (bound per element: fp32 error model)",
                              max_abs_error, max_ratio);
  if (!ok)
    s += fmt::format("; {} of {} out of bound, worst at {}: got {:.7g}, expected {:.7g}, bound {:.1e}", failures, count,
                     where ? where(worst_index) : std::to_string(worst_index), worst_got, worst_expected, worst_bound);
  return s;
}

}  // namespace s4d

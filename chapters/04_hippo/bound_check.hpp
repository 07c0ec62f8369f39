// Checking an fp32 result against fp64 with a bound per element (s4d::fp32_error_bound):
// |got − expected| ≤ bound, NaN and Inf never pass. A single atol and rtol cannot express
// an error that grows with ℓ|ΔA| and shrinks with e^{ℓ Re ΔA}; a bound per element can.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>

namespace s4d {

struct BoundCheck {
  bool ok = true;
  std::size_t count = 0;
  std::size_t failures = 0;  // out of bound, non-finite ones included
  double max_abs_error = 0;
  double max_ratio = 0;         // max |got − expected| / bound over the finite elements
  std::size_t worst_index = 0;  // the first non-finite element, else the largest ratio
  double worst_got = 0, worst_expected = 0, worst_bound = 0;

  // "max abs err 2.1e-07, max err/bound 0.03" and, on a failure, the worst element.
  std::string summary(const std::function<std::string(std::size_t)>& where = {}) const;
};

BoundCheck check_within_bound(std::span<const float> got, std::span<const double> expected,
                              std::span<const double> bound);

}  // namespace s4d

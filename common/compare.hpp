// Comparing a result against its fp64 reference: |got − expected| ≤ atol + rtol·|expected|.
//
// NaN and Inf never pass (a plain `err > tol` test lets NaN through, because every
// comparison with NaN is false). The report carries what a reader needs to see a failure:
// the largest absolute and relative errors, and the worst element with its value, its
// expected value and the bound it broke.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>

namespace common {

struct Tolerance {
  double atol = 0;
  double rtol = 0;
};

struct Comparison {
  bool ok = true;
  Tolerance tolerance;
  std::size_t count = 0;        // elements compared
  std::size_t failures = 0;     // elements out of tolerance (non-finite ones included)
  std::size_t non_finite = 0;   // NaN or Inf in the result or the reference
  double max_abs_error = 0;     // over the finite elements
  double max_rel_error = 0;     // |error| / |expected|, over elements with expected ≠ 0
  std::size_t worst_index = 0;  // the first non-finite element, else the one furthest past its bound
  double worst_got = 0;
  double worst_expected = 0;

  // "max abs err 3.1e-07, max rel err 2.0e-06 ≤ atol 1e-05 + rtol 1e-04·|ref|" and, on a
  // failure, which element and its values. `where` turns a flat index into words, e.g.
  // "t=3, b=17"; without it the index is printed.
  std::string summary(const std::function<std::string(std::size_t)>& where = {}) const;
};

Comparison compare(std::span<const float> got, std::span<const double> expected, Tolerance tol);
Comparison compare(std::span<const double> got, std::span<const double> expected, Tolerance tol);

}  // namespace common

// Small helpers shared by chapter 03's tests.
#pragma once

#include "compare.hpp"

#include <catch2/catch.hpp>

#include <functional>
#include <vector>

// Fails the test case with the comparison's report (worst element, expected, got) when the
// comparison failed; `what` names the quantity and the input.
#define CHECK_CLOSE(what, comparison)             \
  do {                                            \
    const ::common::Comparison c_ = (comparison); \
    INFO(what << ": " << c_.summary());           \
    CHECK(c_.ok);                                 \
  } while (0)

// ∂f/∂v_k for every k by central differences (f is linear or smooth in v).
inline std::vector<double> finite_differences(std::vector<double> v,
                                              const std::function<double(const std::vector<double>&)>& f,
                                              double eps = 1e-6) {
  std::vector<double> d(v.size());
  for (std::size_t k = 0; k < v.size(); ++k) {
    const double keep = v[k];
    v[k] = keep + eps;
    const double up = f(v);
    v[k] = keep - eps;
    const double down = f(v);
    v[k] = keep;
    d[k] = (up - down) / (2 * eps);
  }
  return d;
}

// y = Mᵀ g for an n × n row-major M.
inline std::vector<double> transpose_times(const std::vector<double>& M, const std::vector<double>& g) {
  const std::size_t n = g.size();
  std::vector<double> y(n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) y[j] += M[i * n + j] * g[i];
  return y;
}

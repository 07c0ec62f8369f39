// Small helpers shared by chapter 03's tests.
#pragma once

#include "check_close.hpp"
#include "compare.hpp"
#include "finite_differences.hpp"

#include <catch2/catch.hpp>

#include <functional>
#include <vector>

using conv::finite_differences;

// y = Mᵀ g for an n × n row-major M.
inline std::vector<double> transpose_times(const std::vector<double>& M, const std::vector<double>& g) {
  const std::size_t n = g.size();
  std::vector<double> y(n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) y[j] += M[i * n + j] * g[i];
  return y;
}

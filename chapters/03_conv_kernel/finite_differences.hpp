// Gradients by central differences, the fp64 yardstick for every backward formula of the
// chapter (the program and the tests both use it).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

namespace conv {

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

}  // namespace conv

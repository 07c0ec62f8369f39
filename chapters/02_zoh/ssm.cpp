#include "ssm.hpp"

#include <stdexcept>

namespace zoh {

const char* name(Method m) {
  switch (m) {
    case Method::zoh: return "ZOH";
    case Method::bilinear: return "bilinear";
    case Method::euler: return "Euler";
    case Method::mamba: return "Mamba (ZOH Ā, Euler B̄)";
  }
  return "?";
}

// [snippet:simulate]
std::vector<double> simulate(const DiscreteSsm& s, const std::vector<double>& x) {
  const std::size_t n = std::size_t(s.n);
  if (s.Abar.size() != n * n || s.Bbar.size() != n || s.C.size() != n)
    throw std::invalid_argument("simulate: Ā must be n × n and B̄, C of length n");
  std::vector<double> h(n, 0.0), next(n), y(x.size());
  for (std::size_t k = 0; k < x.size(); ++k) {
    for (std::size_t i = 0; i < n; ++i) {
      double v = s.Bbar[i] * x[k];
      for (std::size_t j = 0; j < n; ++j) v += s.Abar[i * n + j] * h[j];
      next[i] = v;
    }
    h.swap(next);
    double out = s.D * x[k];
    for (std::size_t i = 0; i < n; ++i) out += s.C[i] * h[i];
    y[k] = out;
  }
  return y;
}
// [/snippet:simulate]

}  // namespace zoh

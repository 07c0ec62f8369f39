// What the sections of chapter 04's program share (sections.hpp): the figures' axes.
#include "sections.hpp"

namespace ch04 {

std::vector<double> range(int n, double first, double step) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i) v[i] = first + i * step;
  return v;
}

}  // namespace ch04

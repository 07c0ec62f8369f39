// What the sections of chapter 03's program share (sections.hpp): the figures' axes.
#include "sections.hpp"

namespace ch03 {

std::vector<double> range(int n) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i) v[i] = i;
  return v;
}

}  // namespace ch03

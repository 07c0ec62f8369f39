// What the sections of chapter 01's program share (sections.hpp): the figures' axes and the
// names of the elements of a time-major array.
#include "sections.hpp"

#include <fmt/format.h>

namespace ch01 {

std::vector<double> range(int n, int first) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i) v[i] = first + i;
  return v;
}

std::string time_major_index(std::size_t i, int batch) { return fmt::format("t={}, b={}", i / batch, i % batch); }

}  // namespace ch01

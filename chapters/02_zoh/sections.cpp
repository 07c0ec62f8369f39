// What the sections of chapter 02's program share (sections.hpp): the numbers' format and the
// figures' axes.
#include "sections.hpp"

#include <fmt/format.h>

namespace ch02 {

std::string sci(double v) { return fmt::format("{:.2e}", v); }

std::vector<double> linspace(double first, double last, int count) {
  std::vector<double> v(count);
  for (int i = 0; i < count; ++i) v[i] = first + (last - first) * i / (count - 1);
  return v;
}

}  // namespace ch02

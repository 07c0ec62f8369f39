// What the sections of chapter 05's program share (sections.hpp): the cells of the example's rows
// and the sizes' labels.
#include "sections.hpp"

#include <fmt/format.h>

#include <cmath>

namespace ch05 {

std::string row_of(const std::vector<double>& values, const std::function<std::string(double)>& cell, int width) {
  std::string out;
  for (double v : values) out += fmt::format("{:>{}}", cell(v), width);
  return out;
}
std::string number(double v) { return fmt::format("{}", v); }

std::string power_of_two_label(std::size_t n) {
  const int e = static_cast<int>(std::log2(static_cast<double>(n)));
  if (std::size_t(1) << e == n) return fmt::format("2^{}", e);
  return std::to_string(n);
}

}  // namespace ch05

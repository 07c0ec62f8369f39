// What the sections of chapter 05's program share (sections.hpp): the cells of the example's rows.
#include "sections.hpp"

#include <fmt/format.h>

namespace ch05 {

std::string row_of(const std::vector<double>& values, const std::function<std::string(double)>& cell, int width) {
  std::string out;
  for (double v : values) out += fmt::format("{:>{}}", cell(v), width);
  return out;
}
std::string number(double v) { return fmt::format("{}", v); }

}  // namespace ch05

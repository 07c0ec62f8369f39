// What the sections of chapter 06's program share (sections.hpp): the sizes' labels.
#include "sections.hpp"

#include <fmt/format.h>

#include <cmath>

namespace ch06 {

std::string power_of_two_label(std::size_t n) {
  const int e = static_cast<int>(std::log2(static_cast<double>(n)));
  if (std::size_t(1) << e == n) return fmt::format("2^{}", e);
  return std::to_string(n);
}

}  // namespace ch06

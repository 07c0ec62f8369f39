// The reverse pass, walked from the end of each sequence (exercise 1's solution).
#include "reference.hpp"

namespace rscan {

// [snippet:reverse_pass]
std::vector<double> reverse_pass(Shape shape, std::span<const double> a, std::span<const double> dy) {
  std::vector<double> g(shape.size());
  for (std::size_t s = 0; s < shape.sequences; ++s) {
    const std::size_t first = s * shape.length;
    double later = 0;  // g_{k+1}; nothing lies past the end of the sequence
    for (std::size_t k = shape.length; k-- > 0;) {
      const double a_next = k + 1 < shape.length ? a[first + k + 1] : 0.0;
      later = dy[first + k] + a_next * later;
      g[first + k] = later;
    }
  }
  return g;
}
// [/snippet:reverse_pass]

}  // namespace rscan

// Exercise 1: the reverse pass on the CPU.
//
// Return g with g_k = dy_k + a_{k+1} g_{k+1} for every sequence of `shape` (sequence s is at
// [s·length, (s+1)·length)), walking each sequence from its last step down to its first.
// Past the end of a sequence there is nothing: g_{length} = 0, so g_{length−1} = dy_{length−1}.
// Test it with:  scripts/exercise ch07_reverse_scan 1
#include "reference.hpp"

namespace rscan {

// [snippet:exercise]
std::vector<double> reverse_pass(Shape shape, std::span<const double> a, std::span<const double> dy) {
  std::vector<double> g(shape.size(), 0.0);
  // TODO(exercise): fill g.
  // [/snippet:exercise]
  (void)a;
  (void)dy;
  return g;
}

}  // namespace rscan

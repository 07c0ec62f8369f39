// Exercise 2's solution: one level of Blelloch's down-sweep (declared in scan_simulation.hpp).
#include "scan_simulation.hpp"

namespace scan {

// [snippet:down_sweep_level]
void blelloch_down_sweep_level(std::span<double> tree, std::size_t stride) {
  for (std::size_t i = 0; stride * (2 * i + 2) <= tree.size(); ++i) {
    const std::size_t left = stride * (2 * i + 1) - 1, right = stride * (2 * i + 2) - 1;
    const double left_sum = tree[left];  // the sum over the left half of the pair
    tree[left] = tree[right];            // everything before the pair
    tree[right] += left_sum;             // ... and the left half too
  }
}
// [/snippet:down_sweep_level]

}  // namespace scan

// Exercise 2: one level of Blelloch's down-sweep.
//
// The array is a binary tree; at this level the pairs are (left, right) =
// (stride·(2i+1) − 1, stride·(2i+2) − 1) for i = 0, 1, ... while right < tree.size().
// tree[right] holds the sum of everything *before* the pair (the root was set to 0, the
// identity), tree[left] the sum over the pair's left half (from the up-sweep). Hand the
// right's value to the left child, and give the right child that value plus the left half:
//     t = tree[left];  tree[left] = tree[right];  tree[right] += t.
// blelloch_trace() calls it for strides n/2, ..., 2, 1; the result is the exclusive scan.
// Test it with:  scripts/exercise ch05_cumsum_scan 2
#include "scan_simulation.hpp"

namespace scan {

// [snippet:exercise]
void blelloch_down_sweep_level(std::span<double> tree, std::size_t stride) {
  // TODO(exercise): update every pair of this level.
  // [/snippet:exercise]
  (void)tree, (void)stride;
}

}  // namespace scan

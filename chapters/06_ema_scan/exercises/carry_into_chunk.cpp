// Exercise 2: the block-carry combine.
//
// chunk_scan[k] = (A_k, B_k) is the chunk's inclusive scan of pairs, computed as if the state
// before the chunk were 0. Return every h_k of the chunk given the real state before it,
// h_before. (Version 4's tiles do exactly this once the look-back has found h_before.)
// Test it with:  scripts/exercise ch06_ema_scan 2
#include "reference.hpp"

namespace ema {

// [snippet:exercise]
std::vector<double> carry_into_chunk(std::span<const Pair<double>> chunk_scan, double h_before) {
  // TODO(exercise): correct each local result with the carry.
  // [/snippet:exercise]
  (void)h_before;
  std::vector<double> h(chunk_scan.size());
  for (std::size_t k = 0; k < chunk_scan.size(); ++k) h[k] = chunk_scan[k].b;
  return h;
}

}  // namespace ema

// Exercise 2's solution: a chunk's results from its local scan and the carry (reference.hpp).
#include "reference.hpp"

namespace ema {

// [snippet:carry_into_chunk]
std::vector<double> carry_into_chunk(std::span<const Pair<double>> chunk_scan, double h_before) {
  std::vector<double> h(chunk_scan.size());
  // (A_k, B_k) is the map from the state before the chunk to h_k: one multiply-add each,
  // independent of one another -- the whole point of carrying a single number between chunks.
  for (std::size_t k = 0; k < chunk_scan.size(); ++k) h[k] = chunk_scan[k].a * h_before + chunk_scan[k].b;
  return h;
}
// [/snippet:carry_into_chunk]

}  // namespace ema

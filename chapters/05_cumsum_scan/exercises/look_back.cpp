// Exercise 3: the look-back of one tile in the single-pass scan.
//
// Walk over the predecessors p = tile − 1, tile − 2, ..., 0, counting each one read in
// `inspected`:
//   - flag not_ready: stop; return ready = false (the tile must look again later);
//   - flag aggregate: add its value (that tile's own sum) and go on to p − 1;
//   - flag prefix:    add its value (the sum of tiles 0..p) and stop; ready = true.
// Tile 0 has no predecessor: ready, prefix 0, nothing inspected.
// Test it with:  scripts/exercise ch05_cumsum_scan 3
#include "scan_simulation.hpp"

namespace scan {

// [snippet:exercise]
LookBack look_back(std::span<const TileStatus> status, std::size_t tile) {
  // TODO(exercise): walk back over status[tile − 1], status[tile − 2], ...
  // [/snippet:exercise]
  (void)status, (void)tile;
  return {true, 0.0, 0};
}

}  // namespace scan

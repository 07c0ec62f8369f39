// Exercise 3's solution: the look-back of one tile (declared in scan_simulation.hpp).
#include "scan_simulation.hpp"

namespace scan {

// [snippet:look_back]
LookBack look_back(std::span<const TileStatus> status, std::size_t tile) {
  LookBack result{true, 0.0, 0};
  for (std::size_t p = tile; p-- > 0;) {  // p = tile − 1, tile − 2, ..., 0
    ++result.inspected;
    if (status[p].flag == TileFlag::not_ready) return {false, 0.0, result.inspected};
    result.exclusive_prefix += status[p].value;
    if (status[p].flag == TileFlag::prefix) return result;  // it already holds everything before it
  }
  return result;  // only for tile 0, which has no predecessor
}
// [/snippet:look_back]

}  // namespace scan

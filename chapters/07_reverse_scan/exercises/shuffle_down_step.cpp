// Exercise 3: one shuffle-down step of the warp reverse scan, on the CPU.
//
// Return `out` where lane i holds combine_reverse(lanes[i], lanes[i + delta]) when lane
// i + delta exists, and lanes[i] unchanged otherwise. Read only `lanes`: every lane must see
// the values from before this step, as __shfl_down_sync hands each lane its neighbour's value
// from before the exchange. Which of the two goes first in combine_reverse matters: lane i's
// step comes earlier in time than lane i + delta's.
// Test it with:  scripts/exercise ch07_reverse_scan 3
#include "scan_simulation.hpp"

namespace rscan {

// [snippet:exercise]
std::vector<Step> shuffle_down_step(std::span<const Step> lanes, std::size_t delta) {
  std::vector<Step> out(lanes.size());
  // TODO(exercise): fill out.
  // [/snippet:exercise]
  (void)delta;
  return out;
}

}  // namespace rscan

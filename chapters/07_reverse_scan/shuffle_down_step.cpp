// One shuffle-down step of the warp reverse scan (exercise 3's solution).
#include "scan_simulation.hpp"

namespace rscan {

// [snippet:shuffle_down_step]
std::vector<Step> shuffle_down_step(std::span<const Step> lanes, std::size_t delta) {
  std::vector<Step> out(lanes.begin(), lanes.end());
  for (std::size_t i = 0; i + delta < lanes.size(); ++i) out[i] = combine_reverse(lanes[i], lanes[i + delta]);
  return out;
}
// [/snippet:shuffle_down_step]

}  // namespace rscan

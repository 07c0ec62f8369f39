// overlaps.hpp: the first output of a call that shares a byte with another of its tensors.
#pragma once

#include "ssd.hpp"

#include <string>

namespace ssd::detail {

// "" when every output of the call (y, final_states, saved, sequence_final_states; a backward's
// gradients) lies apart from every tensor the call reads and from every other output; else one
// line naming the two. Call it on parameters whose other checks passed: it counts their bytes.
std::string forward_overlap(const ForwardParams& p);
std::string backward_overlap(const BackwardParams& p);

}  // namespace ssd::detail

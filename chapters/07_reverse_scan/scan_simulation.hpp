// The reverse scan as an associative scan, simulated on the CPU lane by lane.
//
// Step k of the reverse pass is the affine map g_k = A_k · g_{k+1} + B_k with A_k = a_{k+1}
// and B_k = dy_k. Two neighbouring steps compose into one map of the same form, so a warp can
// compute every suffix in log2(32) = 5 shuffle-down steps; these functions do the same on the
// CPU so that the steps can be printed and tested without a GPU.
#pragma once

#include "reference.hpp"

#include <span>
#include <vector>

namespace rscan {

struct Step {
  double a = 1;  // the identity map g ↦ 1·g + 0 is the default
  double b = 0;
};

// The map of step k followed (later in time) by the map of the steps after it:
// g_k = e.a (l.a g + l.b) + e.b.
// [snippet:reverse_combine]
inline Step combine_reverse(Step earlier, Step later) { return {earlier.a * later.a, earlier.a * later.b + earlier.b}; }
// [/snippet:reverse_combine]

// The steps (A_k, B_k) = (a_{k+1}, dy_k) of one sequence; A of the last step is 0.
std::vector<Step> reverse_steps(std::span<const double> a, std::span<const double> dy);

// Exercise 3 (shuffle_down_step.cpp): one step of the warp's reverse scan. Lane i reads the
// value of lane i + delta (what __shfl_down_sync hands it) and, when that lane exists,
// combines it as the later part: out[i] = combine_reverse(in[i], in[i + delta]); lanes with
// i + delta ≥ lanes.size() keep their value.
std::vector<Step> shuffle_down_step(std::span<const Step> lanes, std::size_t delta);

// Every stage of the warp reverse scan: stage 0 is the input, stage s the lanes after the
// shuffle-down step with delta = 2^{s−1}, until delta reaches the number of lanes.
std::vector<std::vector<Step>> warp_reverse_scan_trace(std::span<const Step> lanes);

// The block reverse scan of the GPU's version 3, simulated: chunks of `chunk` steps walked
// from the end of the sequence; each chunk is scanned in warps of `warp` lanes (shuffle-down
// steps), the warp totals are reverse-scanned (the raking step), and the g carried in from
// the later chunk closes every map. Returns g.
std::vector<double> block_reverse_scan(std::span<const Step> steps, std::size_t chunk, std::size_t warp);

}  // namespace rscan

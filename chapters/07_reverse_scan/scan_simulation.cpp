#include "scan_simulation.hpp"

#include <algorithm>
#include <stdexcept>

namespace rscan {

std::vector<Step> reverse_steps(std::span<const double> a, std::span<const double> dy) {
  if (a.size() != dy.size()) throw std::invalid_argument("reverse_steps: a and dy differ in size");
  std::vector<Step> steps(a.size());
  for (std::size_t k = 0; k < a.size(); ++k) steps[k] = {k + 1 < a.size() ? a[k + 1] : 0.0, dy[k]};
  return steps;
}

std::vector<std::vector<Step>> warp_reverse_scan_trace(std::span<const Step> lanes) {
  std::vector<std::vector<Step>> stages{std::vector<Step>(lanes.begin(), lanes.end())};
  for (std::size_t delta = 1; delta < lanes.size(); delta *= 2)
    stages.push_back(shuffle_down_step(stages.back(), delta));
  return stages;
}

std::vector<double> block_reverse_scan(std::span<const Step> steps, std::size_t chunk, std::size_t warp) {
  if (warp == 0 || chunk == 0 || chunk % warp != 0)
    throw std::invalid_argument("block_reverse_scan: chunk must be a multiple of warp");
  const std::size_t n = steps.size();
  const std::size_t warps = chunk / warp;
  std::vector<double> g(n);
  double carry = 0;  // g just past the chunk being scanned: 0 past the end of the sequence
  for (std::size_t start = (n == 0 ? 0 : (n - 1) / chunk * chunk);; start -= chunk) {
    // Each warp scans its lanes; lanes past the end hold the identity.
    std::vector<std::vector<Step>> scanned(warps);
    for (std::size_t w = 0; w < warps; ++w) {
      std::vector<Step> lanes(warp);
      for (std::size_t l = 0; l < warp; ++l) {
        const std::size_t k = start + w * warp + l;
        if (k < n) lanes[l] = steps[k];
      }
      scanned[w] = warp_reverse_scan_trace(lanes).back();
    }
    // The warp totals (lane 0 holds the whole warp's map), reverse-scanned.
    std::vector<Step> totals(warps);
    for (std::size_t w = 0; w < warps; ++w) totals[w] = scanned[w][0];
    totals = warp_reverse_scan_trace(totals).back();
    for (std::size_t w = 0; w < warps; ++w)
      for (std::size_t l = 0; l < warp; ++l) {
        const std::size_t k = start + w * warp + l;
        if (k >= n) continue;
        const Step suffix = w + 1 < warps ? combine_reverse(scanned[w][l], totals[w + 1]) : scanned[w][l];
        g[k] = suffix.a * carry + suffix.b;
      }
    carry = totals[0].a * carry + totals[0].b;
    if (start == 0) break;
  }
  return g;
}

}  // namespace rscan

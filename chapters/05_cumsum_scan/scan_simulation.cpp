#include "scan_simulation.hpp"

#include <cmath>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>

namespace scan {
namespace {

bool is_power_of_two(std::size_t n) { return n > 0 && (n & (n - 1)) == 0; }

}  // namespace

std::vector<std::vector<double>> hillis_steele_trace(std::span<const double> x) {
  std::vector<std::vector<double>> states{std::vector<double>(x.begin(), x.end())};
  for (std::size_t offset = 1; offset < x.size(); offset *= 2)
    states.push_back(hillis_steele_step(states.back(), offset));
  return states;
}

// [snippet:up_sweep_level]
void blelloch_up_sweep_level(std::span<double> tree, std::size_t stride) {
  for (std::size_t i = 0; stride * (2 * i + 2) <= tree.size(); ++i) {
    const std::size_t left = stride * (2 * i + 1) - 1, right = stride * (2 * i + 2) - 1;
    tree[right] += tree[left];
  }
}
// [/snippet:up_sweep_level]

std::vector<BlellochStep> blelloch_trace(std::span<const double> x) {
  const std::size_t n = x.size();
  if (!is_power_of_two(n)) throw std::invalid_argument("blelloch_trace: n must be a power of two");
  std::vector<BlellochStep> steps{{"input", 0, true, std::vector<double>(x.begin(), x.end())}};
  for (std::size_t stride = 1; stride < n; stride *= 2) {
    auto state = steps.back().state;
    blelloch_up_sweep_level(state, stride);
    steps.push_back({"up-sweep, stride " + std::to_string(stride), stride, true, state});
  }
  auto cleared = steps.back().state;
  cleared[n - 1] = 0;  // the root becomes the identity: nothing comes before the whole array
  steps.push_back({"clear the root", 0, false, cleared});
  for (std::size_t stride = n / 2; stride >= 1; stride /= 2) {
    auto state = steps.back().state;
    blelloch_down_sweep_level(state, stride);
    steps.push_back({"down-sweep, stride " + std::to_string(stride), stride, false, state});
  }
  return steps;
}

std::vector<double> blelloch_exclusive_scan(std::span<const double> x) {
  std::size_t n = 1;
  while (n < x.size()) n *= 2;
  std::vector<double> padded(n, 0.0);
  std::copy(x.begin(), x.end(), padded.begin());
  auto result = blelloch_trace(padded).back().state;
  result.resize(x.size());
  return result;
}

int up_sweep_conflict_degree(std::size_t n, std::size_t stride, bool padded) {
  std::map<std::size_t, std::set<std::size_t>> words_per_bank;
  for (std::size_t t = 0; t < 32 && stride * (2 * t + 2) <= n; ++t) {
    const std::size_t left = stride * (2 * t + 1) - 1;
    const std::size_t word = padded ? padded_index(left) : left;
    words_per_bank[word % 32].insert(word);
  }
  std::size_t worst = 0;
  for (const auto& [bank, words] : words_per_bank) worst = std::max(worst, words.size());
  return static_cast<int>(worst);
}

LookBackSimulation simulate_decoupled_look_back(std::span<const double> tile_sums, int resident_blocks,
                                                std::uint64_t seed) {
  if (resident_blocks < 1) throw std::invalid_argument("simulate_decoupled_look_back: need a resident block");
  const std::size_t tiles = tile_sums.size();
  std::mt19937_64 rng(seed);
  std::vector<TileStatus> status(tiles);
  std::vector<TilePhase> phase(tiles, TilePhase::not_started);
  std::vector<int> work_left(tiles, 0);
  LookBackSimulation sim{{}, std::vector<double>(tiles, 0.0), {}};
  std::size_t next_tile = 0;  // the atomic counter: tiles are claimed in order
  int busy_blocks = 0;
  auto all_done = [&] {
    for (TilePhase p : phase)
      if (p != TilePhase::done) return false;
    return true;
  };
  for (int step = 0; !all_done(); ++step) {
    if (step > 100 * static_cast<int>(tiles + 1)) throw std::runtime_error("decoupled look-back made no progress");
    const std::vector<TileStatus> seen = status;  // what every tile reads during this step
    for (std::size_t t = 0; t < tiles; ++t) {
      if (phase[t] == TilePhase::reducing && --work_left[t] == 0) {
        // The tile's own sum is known: publish it at once, so that successors can use it.
        status[t] = {t == 0 ? TileFlag::prefix : TileFlag::aggregate, tile_sums[t]};
        phase[t] = t == 0 ? TilePhase::done : TilePhase::looking_back;
        if (t == 0) --busy_blocks;
      } else if (phase[t] == TilePhase::looking_back) {
        const LookBack lb = look_back(seen, t);
        sim.events.push_back("step " + std::to_string(step) + ": tile " + std::to_string(t) + " read " +
                             std::to_string(lb.inspected) + (lb.inspected == 1 ? " status, " : " statuses, ") +
                             (lb.ready ? "prefix " + std::to_string(static_cast<long long>(lb.exclusive_prefix))
                                       : std::string("must wait")));
        if (lb.ready) {
          sim.exclusive_prefix[t] = lb.exclusive_prefix;
          status[t] = {TileFlag::prefix, lb.exclusive_prefix + tile_sums[t]};
          phase[t] = TilePhase::done;
          --busy_blocks;
        }
      }
    }
    // Free blocks claim the next tiles, in order.
    while (busy_blocks < resident_blocks && next_tile < tiles) {
      phase[next_tile] = TilePhase::reducing;
      work_left[next_tile] = 1 + static_cast<int>(rng() % 4);
      ++next_tile;
      ++busy_blocks;
    }
    sim.phases.push_back(phase);
  }
  return sim;
}

std::pair<int, int> held_range_bounds(double value) {
  if (value == 0) return {0, -1};
  int first = -1, last = -1;
  for (int j = 0; j < 53; ++j) {
    const bool bit = std::fmod(std::floor(value / std::ldexp(1.0, j)), 2.0) == 1.0;
    if (bit && first < 0) first = j;
    if (bit) last = j;
  }
  // Contiguous when value = 2^first + ... + 2^last = 2^(last+1) − 2^first.
  if (first < 0 || value != std::ldexp(1.0, last + 1) - std::ldexp(1.0, first)) return {-1, -1};
  return {first, last};
}

std::string held_range(double value) {
  const auto [first, last] = held_range_bounds(value);
  if (first > last) return "∅";
  if (first < 0) return "?";
  if (first == last) return std::to_string(first);
  return std::to_string(first) + ".." + std::to_string(last);
}

std::vector<double> power_of_two_input(std::size_t n) {
  if (n > 52) throw std::invalid_argument("power_of_two_input: at most 52 elements stay exact in fp64");
  std::vector<double> x(n);
  for (std::size_t j = 0; j < n; ++j) x[j] = std::ldexp(1.0, static_cast<int>(j));
  return x;
}

}  // namespace scan

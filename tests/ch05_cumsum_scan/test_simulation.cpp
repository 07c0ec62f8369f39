// The CPU simulations: what the text says each step holds, and the bank-conflict table.
#include "ch05_test_support.hpp"
#include "reference.hpp"
#include "scan_simulation.hpp"

#include <cmath>

namespace {

std::vector<double> inclusive(const std::vector<double>& x) {
  std::vector<double> y(x.size());
  double s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = s += x[i];
  return y;
}

}  // namespace

TEST_CASE("held_range reads the inputs a power-of-two sum holds") {
  CHECK(scan::held_range(0) == "∅");
  CHECK(scan::held_range(8) == "3");
  CHECK(scan::held_range(2 + 4 + 8) == "1..3");
  CHECK(scan::held_range(1 + 4) == "?");
  CHECK(scan::held_range_bounds(1 + 2 + 4 + 8) == std::pair{0, 3});
}

TEST_CASE("after Hillis-Steele step s, element j holds x_{j-2^(s+1)+1} .. x_j") {
  for (std::size_t n : {1, 2, 5, 16, 33}) {
    const auto states = scan::hillis_steele_trace(scan::power_of_two_input(n));
    REQUIRE(states.size() == 1 + static_cast<std::size_t>(std::ceil(std::log2(double(n)))));
    for (std::size_t s = 1; s < states.size(); ++s)
      for (std::size_t j = 0; j < n; ++j) {
        const long long width = 1ll << s;
        const int first = static_cast<int>(std::max(0ll, static_cast<long long>(j) - width + 1));
        INFO("n " << n << ", step " << s << ", element " << j << " holds " << scan::held_range(states[s][j]));
        CHECK(scan::held_range_bounds(states[s][j]) == std::pair{first, static_cast<int>(j)});
      }
  }
}

TEST_CASE("Blelloch's trace ends in the exclusive scan, for any length") {
  for (std::size_t n : {1, 2, 3, 16, 31, 33, 100}) {
    std::vector<double> x(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = double((i * 7) % 5) - 2;
    const auto incl = inclusive(x);
    std::vector<double> expected(n, 0.0);
    for (std::size_t j = 1; j < n; ++j) expected[j] = incl[j - 1];
    CHECK_CLOSE("exclusive scan of n = " << n, common::compare(scan::blelloch_exclusive_scan(x), expected, kExact));
  }
  // After the up-sweep, element d·2^k − 1 holds the range of 2^k inputs it closes.
  const auto steps = scan::blelloch_trace(scan::power_of_two_input(16));
  const auto& up = steps[4].state;  // after strides 1, 2, 4, 8
  CHECK(scan::held_range(up[15]) == "0..15");
  CHECK(scan::held_range(up[7]) == "0..7");
  CHECK(scan::held_range(up[11]) == "8..11");
  CHECK(scan::held_range(up[12]) == "12");
}

TEST_CASE("the up-sweep's bank conflicts: 2^k-way without padding, none with it") {
  CHECK(scan::up_sweep_conflict_degree(1024, 1, false) == 2);
  CHECK(scan::up_sweep_conflict_degree(1024, 2, false) == 4);
  CHECK(scan::up_sweep_conflict_degree(1024, 16, false) == 32);
  // Fewer than 32 threads are active at the top levels: stride 64 has 8 pairs.
  CHECK(scan::up_sweep_conflict_degree(1024, 64, false) == 8);
  for (std::size_t stride = 1; stride < 1024; stride *= 2) {
    INFO("stride " << stride);
    CHECK(scan::up_sweep_conflict_degree(1024, stride, true) <= 2);
  }
  CHECK(scan::up_sweep_conflict_degree(1024, 16, true) == 1);
}

TEST_CASE("the look-back simulation finishes, and every tile finds its exclusive prefix") {
  for (int blocks : {1, 2, 4, 16}) {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      std::vector<double> sums(23);
      for (std::size_t t = 0; t < sums.size(); ++t) sums[t] = double(t % 4) - 1;
      const auto sim = scan::simulate_decoupled_look_back(sums, blocks, seed);
      std::vector<double> expected(sums.size(), 0.0);
      for (std::size_t t = 1; t < sums.size(); ++t) expected[t] = expected[t - 1] + sums[t - 1];
      CHECK_CLOSE("prefixes, " << blocks << " blocks, seed " << seed,
                  common::compare(sim.exclusive_prefix, expected, kExact));
      // Never more tiles in flight than resident blocks.
      for (const auto& step : sim.phases) {
        int busy = 0;
        for (auto p : step) busy += p == scan::TilePhase::reducing || p == scan::TilePhase::looking_back;
        CHECK(busy <= blocks);
      }
    }
  }
}

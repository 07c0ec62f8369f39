// The traffic model of the two ways to spread a sequence (communication.hpp): by hand on one
// shape, and the crossover where it says it is.
#include "communication.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>

TEST_CASE("the traffic of state passing and of moving channels, by hand") {
  // b 1, d 1536, n 16, bf16, 2 ranks.
  ch11::ScanShape s;
  s.dim = 1536, s.seqlen = 4096;
  const ch11::Traffic passing = ch11::state_passing(s, 2), moving = ch11::moving_channels(s, 2);
  CHECK(passing.forward_bytes == 1536.0 * 17 * 4);                                   // one summary
  CHECK(passing.backward_bytes == 1536.0 * 16 * 4 + 1536.0 * 18 * 4);                // a gradient, then the weights'
  CHECK(moving.forward_bytes == 0.5 * 4 * 2048.0 * 1536 * 2 + 2 * 2048.0 * 16 * 2);  // u, δ, z, y; B, C
  CHECK(moving.backward_bytes == moving.forward_bytes);
  // On one rank nothing moves.
  CHECK(ch11::state_passing(s, 1).forward_bytes == 0);
  CHECK(ch11::moving_channels(s, 1).backward_bytes == 0);
}

TEST_CASE("the crossover: the first length where state passing receives no more") {
  ch11::ScanShape s;
  s.dim = 1536;
  for (int ranks : {2, 4, 8}) {
    INFO(ranks << " ranks");
    const std::int64_t L = ch11::crossover_seqlen(s, ranks);
    s.seqlen = L;
    CHECK(ch11::state_passing(s, ranks).forward_bytes <= ch11::moving_channels(s, ranks).forward_bytes);
    s.seqlen = L - 1;
    CHECK(ch11::state_passing(s, ranks).forward_bytes > ch11::moving_channels(s, ranks).forward_bytes);
  }
  s.seqlen = 1;
  // 1536 · 17 · 4 = 3104 L on two ranks: L = 33.6.
  CHECK(ch11::crossover_seqlen(s, 2) == 34);
  CHECK_THROWS_AS(ch11::crossover_seqlen(s, 1), std::invalid_argument);
  CHECK_THROWS_AS(ch11::state_passing(s, 0), std::invalid_argument);
}

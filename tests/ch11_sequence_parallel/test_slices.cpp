// The split of a sequence among ranks, and the cut and join of its tensors.
#include "slices.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <stdexcept>
#include <vector>

TEST_CASE("split: contiguous slices as even as whole positions allow") {
  for (std::int64_t seqlen : {1, 7, 100, 4099})
    for (int ranks : {1, 2, 3, 4, 8})
      if (ranks <= seqlen) {
        const std::vector<ch11::Slice> slices = ch11::split(seqlen, ranks);
        REQUIRE(int(slices.size()) == ranks);
        CHECK(slices.front().begin == 0);
        CHECK(slices.back().end == seqlen);
        for (std::size_t r = 0; r < slices.size(); ++r) {
          CHECK((slices[r].length() == seqlen / ranks || slices[r].length() == seqlen / ranks + 1));
          if (r > 0) CHECK(slices[r].begin == slices[r - 1].end);
        }
      }
  CHECK_THROWS_AS(ch11::split(3, 4), std::invalid_argument);
  CHECK_THROWS_AS(ch11::split(3, 0), std::invalid_argument);
}

TEST_CASE("split_for_forward: rank 0 takes two shares, the others one") {
  for (std::int64_t seqlen : {2, 7, 100, 4099, 1 << 20})
    for (int ranks : {1, 2, 3, 4, 8})
      if (ranks <= seqlen) {
        const std::vector<ch11::Slice> slices = ch11::split_for_forward(seqlen, ranks);
        REQUIRE(int(slices.size()) == ranks);
        CHECK(slices.front().begin == 0);
        CHECK(slices.back().end == seqlen);
        for (std::size_t r = 0; r < slices.size(); ++r) {
          CHECK(slices[r].length() >= 1);
          if (r > 0) CHECK(slices[r].begin == slices[r - 1].end);
        }
        // Rank 0's one scan against another rank's two, to a position or two.
        if (ranks > 1 && seqlen >= 100) CHECK(std::abs(slices[0].length() - 2 * slices[1].length()) <= 2);
      }
  CHECK(ch11::split_for_forward(1 << 20, 2)[0].length() == 699050);  // 2/3 of 2^20, rounded down
  CHECK_THROWS_AS(ch11::split_for_forward(3, 4), std::invalid_argument);
}

TEST_CASE("cut and joined are inverses along time") {
  std::vector<double> v(3 * 10);
  for (std::size_t e = 0; e < v.size(); ++e) v[e] = double(e);
  std::vector<std::vector<double>> pieces;
  for (const ch11::Slice& s : ch11::split(10, 3)) pieces.push_back(ch11::cut(v, 3, 10, s));
  CHECK(ch11::joined(pieces, 3) == v);
}

// The split of a sequence among ranks, and the cut and join of its tensors.
#include "slices.hpp"

#include <catch2/catch.hpp>

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

TEST_CASE("cut and joined are inverses along time") {
  std::vector<double> v(3 * 10);
  for (std::size_t e = 0; e < v.size(); ++e) v[e] = double(e);
  std::vector<std::vector<double>> pieces;
  for (const ch11::Slice& s : ch11::split(10, 3)) pieces.push_back(ch11::cut(v, 3, 10, s));
  CHECK(ch11::joined(pieces, 3) == v);
}

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

// The GPUs' cuts (kGpuCut): every slice but the last starts and ends on a multiple of 8
// positions, so its rows of 2-byte inputs start on 16 bytes.
TEST_CASE("split and split_for_forward cut on multiples of a granule") {
  for (std::int64_t seqlen : {16, 61, 4133, 1 << 20, (1 << 22) + 5})
    for (int ranks : {1, 2, 3, 4, 7})
      for (bool balanced : {false, true}) {
        if (seqlen / ch11::kGpuCut < ranks) continue;
        const std::vector<ch11::Slice> slices = balanced ? ch11::split_for_forward(seqlen, ranks, ch11::kGpuCut)
                                                         : ch11::split(seqlen, ranks, ch11::kGpuCut);
        INFO("seqlen " << seqlen << ", " << ranks << " ranks, " << (balanced ? "split_for_forward" : "split"));
        REQUIRE(int(slices.size()) == ranks);
        CHECK(slices.back().end == seqlen);
        for (std::size_t r = 0; r < slices.size(); ++r) {
          CHECK(slices[r].begin % ch11::kGpuCut == 0);
          CHECK(slices[r].length() >= ch11::kGpuCut);
          if (r + 1 < slices.size()) CHECK(slices[r].length() % ch11::kGpuCut == 0);
          if (r > 0) CHECK(slices[r].begin == slices[r - 1].end);
        }
      }
  // By hand: section [4]'s 4133 steps on 4 GPUs, and the recorded scaling's uneven cut.
  const std::vector<ch11::Slice> four = ch11::split(4133, 4, 8);  // 516 granules of 8 and 5 steps
  CHECK(four[0].length() == 1032);
  CHECK(four[2].length() == 1032);
  CHECK(four[3].length() == 1037);  // 129 granules and the 5 steps left over
  CHECK(ch11::split_for_forward(1 << 20, 2, 8)[0].length() == 699048);
  CHECK(ch11::split_for_forward(1 << 20, 2, 8)[1].length() == 349528);
  // Fewer granules than ranks: any position, as with granule 1.
  CHECK(ch11::split(20, 4, 8).size() == 4);
  CHECK(ch11::split(20, 4, 8)[0].length() == 5);
  CHECK_THROWS_AS(ch11::split(20, 2, 0), std::invalid_argument);
}

TEST_CASE("cut and joined are inverses along time") {
  std::vector<double> v(3 * 10);
  for (std::size_t e = 0; e < v.size(); ++e) v[e] = double(e);
  std::vector<std::vector<double>> pieces;
  for (const ch11::Slice& s : ch11::split(10, 3)) pieces.push_back(ch11::cut(v, 3, 10, s));
  CHECK(ch11::joined(pieces, 3) == v);
}

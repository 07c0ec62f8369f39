// The split of a sequence among ranks, the cut and join of its tensors, and the two folds: the
// carry into a slice equals the whole sequence's state at the slice's start, and the gradient
// reaching a slice's end equals what the whole sequence's backward sends there.
#include "check_close.hpp"
#include "sliced_scan.hpp"
#include "slices.hpp"
#include "summaries.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>
#include <vector>

namespace {

ch08::Problem shape_of(std::int64_t batch, std::int64_t dim, std::int64_t seqlen, int dstate, int groups) {
  ch08::Problem shape;
  shape.batch = batch, shape.dim = dim, shape.seqlen = seqlen, shape.dstate = dstate, shape.groups = groups;
  return shape;
}

std::vector<double> real_parts(const std::vector<ch08::Complex>& v) {
  std::vector<double> out;
  for (const ch08::Complex& c : v) out.push_back(c.real());
  return out;
}

constexpr common::Tolerance kExact{1e-12, 1e-11};

}  // namespace

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

TEST_CASE("the carry into each slice is the whole sequence's state where the slice starts") {
  ch08::Problem shape = shape_of(2, 3, 61, 5, 1);
  shape.has_delta_bias = shape.delta_softplus = shape.has_initial_state = true;
  const ch08::Problem p = ch08::make_official_test_problem(shape, 3);
  for (int ranks : {1, 2, 4, 7}) {
    INFO(ranks << " ranks");
    const std::vector<ch11::Slice> slices = ch11::split(p.seqlen, ranks);
    std::vector<ch11::Summary> gathered;
    for (const ch11::Slice& s : slices) gathered.push_back(ch11::summarize(ch11::slice_of(p, s, {})));
    for (int r = 0; r < ranks; ++r) {
      // The state before position begin: the whole problem's last state over positions [0, begin).
      std::vector<double> expected = real_parts(p.initial_state);
      if (slices[std::size_t(r)].begin > 0)
        expected = real_parts(
            ch08::reference_forward(ch11::slice_of(p, {0, slices[std::size_t(r)].begin}, expected)).last_state);
      CHECK_CLOSE("carry into rank " << r,
                  common::compare(ch11::carry_into(gathered, r, real_parts(p.initial_state)), expected, kExact));
    }
  }
}

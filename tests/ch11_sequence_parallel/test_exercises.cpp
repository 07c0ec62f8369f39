// Exercise 1: the fold of the gathered summaries (chapters/11_sequence_parallel/exercises/carry_into.cpp).
#include "check_close.hpp"
#include "slices.hpp"
#include "summaries.hpp"

#include <catch2/catch.hpp>

#include <vector>

TEST_CASE("exercise 1: carry_into by hand, three slices of two states", "[exercise]") {
  // Slice 0 maps h to (0.5 h0 + 1, 2 h1 − 1), slice 1 to (0.25 h0 + 3, h1 + 4).
  const std::vector<ch11::Summary> gathered = {
      {{0.5, 2.0}, {1.0, -1.0}}, {{0.25, 1.0}, {3.0, 4.0}}, {{9.0, 9.0}, {9.0, 9.0}}};
  CHECK(ch11::carry_into(gathered, 0, {}) == std::vector<double>{0.0, 0.0});
  CHECK(ch11::carry_into(gathered, 0, {2.0, 3.0}) == std::vector<double>{2.0, 3.0});
  CHECK(ch11::carry_into(gathered, 1, {2.0, 3.0}) == std::vector<double>{2.0, 5.0});
  CHECK(ch11::carry_into(gathered, 2, {2.0, 3.0}) == std::vector<double>{3.5, 9.0});
  CHECK(ch11::carry_into(gathered, 2, {}) == std::vector<double>{3.25, 3.0});
}

TEST_CASE("exercise 1: carry_into equals the whole sequence's state where each slice starts", "[exercise]") {
  ch08::Problem shape;
  shape.batch = 2, shape.dim = 3, shape.seqlen = 61, shape.dstate = 5;
  shape.has_delta_bias = shape.delta_softplus = shape.has_initial_state = true;
  const ch08::Problem p = ch08::make_official_test_problem(shape, 3);
  for (int ranks : {1, 2, 4, 7}) {
    INFO(ranks << " ranks");
    const std::vector<ch11::Slice> slices = ch11::split(p.seqlen, ranks);
    std::vector<ch11::Summary> gathered;
    for (const ch11::Slice& s : slices) gathered.push_back(ch11::summarize(ch11::slice_of(p, s, {})));
    for (int r = 0; r < ranks; ++r) {
      // The state before position `begin`: the whole problem's last state over positions [0, begin).
      std::vector<double> expected = ch11::real_parts(p.initial_state);
      if (slices[std::size_t(r)].begin > 0)
        expected = ch11::real_parts(
            ch08::reference_forward(ch11::slice_of(p, {0, slices[std::size_t(r)].begin}, expected)).last_state);
      const std::vector<double> got = ch11::carry_into(gathered, r, ch11::real_parts(p.initial_state));
      REQUIRE(got.size() == expected.size());
      CHECK_CLOSE("carry into rank " << r, common::compare(got, expected, common::Tolerance{1e-12, 1e-11}));
    }
  }
}

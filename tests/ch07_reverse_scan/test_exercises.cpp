// Chapter 07's exercises. In the `exercises` preset the stubs are compiled in place of the
// solutions, and every test here must fail -- showing the input, the expected value and the
// value got -- until the reader writes the solution.
#include "ch07_test_support.hpp"
#include "scan_simulation.hpp"

#include <sstream>

namespace {
std::string listed(const std::vector<double>& v) {
  std::ostringstream s;
  for (double x : v) s << x << ' ';
  return s.str();
}

// g of one sequence, written out here so that no exercise's stub can feed another's check.
std::vector<double> g_by_hand(const std::vector<double>& a, const std::vector<double>& dy) {
  std::vector<double> g(a.size());
  double later = 0;
  for (std::size_t k = a.size(); k-- > 0;) g[k] = later = dy[k] + (k + 1 < a.size() ? a[k + 1] : 0.0) * later;
  return g;
}
}  // namespace

TEST_CASE("exercise 1: reverse_pass on a small sequence by hand", "[exercise]") {
  // g_2 = 3; g_1 = 2 + 0.5·3 = 3.5; g_0 = 1 + 0.25·3.5 = 1.875 (a_0 is never used).
  const std::vector<double> a{9, 0.25, 0.5}, dy{1, 2, 3}, expected{1.875, 3.5, 3};
  const auto got = rscan::reverse_pass({1, 3}, a, dy);
  REQUIRE(got.size() == expected.size());
  CHECK_CLOSE("a = " << listed(a) << "dy = " << listed(dy), common::compare(got, expected, {1e-15, 0}));
}

TEST_CASE("exercise 1: reverse_pass matches finite differences on several sequences", "[exercise]") {
  for (std::size_t length : {1, 2, 17}) {
    const Inputs in = random_inputs({3, length}, 21);
    const auto h = rscan::forward(in.shape, in.a, in.b);
    const auto fd = rscan::finite_differences(in.shape, in.a, in.b, in.target, 1e-6);
    const auto got = rscan::reverse_pass(in.shape, in.a, rscan::log_cosh_loss_gradient(h, in.target));
    REQUIRE(got.size() == in.shape.size());
    CHECK_CLOSE("g for 3 sequences of length " << length, common::compare(got, fd.g, {1e-8, 1e-6}));
  }
}

TEST_CASE("exercise 2: grad_a_from multiplies g_k by h_(k-1), with h_(-1) = 0 per sequence", "[exercise]") {
  const std::vector<double> g{1, 2, 3, 4, 5, 6}, h{10, 20, 30, 40, 50, 60}, expected{0, 20, 60, 0, 200, 300};
  const auto got = rscan::grad_a_from({2, 3}, g, h);
  REQUIRE(got.size() == expected.size());
  CHECK_CLOSE("g = " << listed(g) << "h = " << listed(h), common::compare(got, expected, {0, 0}));
}

TEST_CASE("exercise 2: grad_a_from matches finite differences", "[exercise]") {
  const Inputs in = random_inputs({2, 33}, 4);
  const auto h = rscan::forward(in.shape, in.a, in.b);
  const auto fd = rscan::finite_differences(in.shape, in.a, in.b, in.target, 1e-6);
  CHECK_CLOSE("dL/da, 2 sequences of 33",
              common::compare(rscan::grad_a_from(in.shape, fd.g, h), fd.grad_a, {1e-8, 1e-6}));
}

TEST_CASE("exercise 3: shuffle_down_step combines lane i with lane i + delta", "[exercise]") {
  const std::vector<rscan::Step> lanes{{0.5, 1}, {2, 3}, {0.25, -1}, {4, 2}, {1, 1}};
  for (std::size_t delta : {1, 2, 4}) {
    std::vector<double> expected_a, expected_b, got_a, got_b;
    const auto got = rscan::shuffle_down_step(lanes, delta);
    REQUIRE(got.size() == lanes.size());
    for (std::size_t i = 0; i < lanes.size(); ++i) {
      const auto e = i + delta < lanes.size() ? rscan::combine_reverse(lanes[i], lanes[i + delta]) : lanes[i];
      expected_a.push_back(e.a);
      expected_b.push_back(e.b);
      got_a.push_back(got[i].a);
      got_b.push_back(got[i].b);
    }
    CHECK_CLOSE("A after delta " << delta << " on lanes (0.5,1) (2,3) (0.25,-1) (4,2) (1,1)",
                common::compare(got_a, expected_a, {0, 0}));
    CHECK_CLOSE("B after delta " << delta << " on lanes (0.5,1) (2,3) (0.25,-1) (4,2) (1,1)",
                common::compare(got_b, expected_b, {0, 0}));
  }
}

TEST_CASE("exercise 3: the shuffle-down steps scan a warp of 32 lanes", "[exercise]") {
  const Inputs in = random_inputs({1, 32}, 9);
  const auto dy = rscan::log_cosh_loss_gradient(rscan::forward(in.shape, in.a, in.b), in.target);
  const auto last = rscan::warp_reverse_scan_trace(rscan::reverse_steps(in.a, dy)).back();
  std::vector<double> got;
  for (const auto& s : last) got.push_back(s.b);
  CHECK_CLOSE("g from the warp scan, 32 lanes", common::compare(got, g_by_hand(in.a, dy), {1e-14, 1e-12}));
}

// The CPU simulations of the warp and block reverse scans agree with the reverse pass.
#include "ch07_test_support.hpp"
#include "scan_simulation.hpp"

namespace {
std::vector<double> g_of(const std::vector<rscan::Step>& suffixes) {
  std::vector<double> g;
  for (const auto& s : suffixes) g.push_back(s.b);  // g past the end is 0
  return g;
}
}  // namespace

TEST_CASE("the combined reverse map is associative") {
  const rscan::Step x{0.5, 1.5}, y{-2.0, 0.25}, z{3.0, -1.0};
  const auto left = rscan::combine_reverse(rscan::combine_reverse(x, y), z);
  const auto right = rscan::combine_reverse(x, rscan::combine_reverse(y, z));
  CHECK(left.a == right.a);
  CHECK(left.b == right.b);
}

TEST_CASE("the warp reverse scan (shuffle-down steps) gives g on a warp") {
  for (std::size_t lanes : {1, 2, 31, 32}) {
    const Inputs in = random_inputs({1, lanes}, 11);
    const auto dy = rscan::log_cosh_loss_gradient(rscan::forward(in.shape, in.a, in.b), in.target);
    const auto steps = rscan::reverse_steps(in.a, dy);
    const auto trace = rscan::warp_reverse_scan_trace(steps);
    CHECK_CLOSE("g from " << lanes << " lanes",
                common::compare(g_of(trace.back()), rscan::reverse_pass(in.shape, in.a, dy), {1e-14, 1e-12}));
  }
}

TEST_CASE("the block reverse scan, carried across chunks, gives g on awkward lengths") {
  for (std::size_t length : {1, 2, 31, 33, 255, 257, 1000}) {
    const Inputs in = random_inputs({1, length}, 5);
    const auto dy = rscan::log_cosh_loss_gradient(rscan::forward(in.shape, in.a, in.b), in.target);
    const auto g = rscan::block_reverse_scan(rscan::reverse_steps(in.a, dy), 256, 32);
    CHECK_CLOSE("g, L = " << length, common::compare(g, rscan::reverse_pass(in.shape, in.a, dy), {1e-13, 1e-12}));
  }
}

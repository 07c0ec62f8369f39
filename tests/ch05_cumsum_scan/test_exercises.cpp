// Chapter 05's exercises. In the `exercises` preset the stubs are compiled in place of the
// solutions, and every test here must fail -- showing the input, the expected value and the
// value got -- until the reader writes the solution.
#include "ch05_test_support.hpp"
#include "scan_simulation.hpp"

#include <string>

namespace {

std::string listed(const std::vector<double>& v) {
  std::string s;
  for (double x : v) {
    if (!s.empty()) s += ' ';
    s += std::to_string(static_cast<long long>(x));
  }
  return s;
}

}  // namespace

TEST_CASE("exercise 1: hillis_steele_step adds the element offset places to the left", "[exercise]") {
  const std::vector<double> x{3, 1, 7, 0, 4, 1, 6, 3, 5};
  for (std::size_t offset : {1, 2, 4, 8}) {
    std::vector<double> expected(x);
    for (std::size_t j = offset; j < x.size(); ++j) expected[j] = x[j] + x[j - offset];
    const auto got = scan::hillis_steele_step(x, offset);
    REQUIRE(got.size() == x.size());
    CHECK_CLOSE("one step, offset " << offset << ", input " << listed(x), common::compare(got, expected, kExact));
  }
}

TEST_CASE("exercise 1: the Hillis-Steele steps make the inclusive scan", "[exercise]") {
  for (std::size_t n : {1, 2, 7, 16, 33}) {
    std::vector<double> x(n), expected(n);
    double s = 0;
    for (std::size_t i = 0; i < n; ++i) expected[i] = s += (x[i] = double(i % 5) + 1);
    CHECK_CLOSE("scan of n = " << n, common::compare(scan::hillis_steele_trace(x).back(), expected, kExact));
  }
}

TEST_CASE("exercise 2: one down-sweep level hands prefixes to the children", "[exercise]") {
  // Stride 4 on 8 elements: one pair (3, 7). tree[7] holds what comes before the pair (10),
  // tree[3] the left half's sum (6).
  std::vector<double> tree{1, 2, 3, 6, 5, 6, 7, 10};
  scan::blelloch_down_sweep_level(tree, 4);
  CHECK_CLOSE("stride 4 on 1 2 3 6 5 6 7 10",
              common::compare(tree, std::vector<double>{1, 2, 3, 10, 5, 6, 7, 16}, kExact));
  // Stride 1 on 4 elements: pairs (0, 1) and (2, 3).
  std::vector<double> leaves{5, 100, 7, 200};
  scan::blelloch_down_sweep_level(leaves, 1);
  CHECK_CLOSE("stride 1 on 5 100 7 200", common::compare(leaves, std::vector<double>{100, 105, 200, 207}, kExact));
}

TEST_CASE("exercise 2: Blelloch's scan is the exclusive scan", "[exercise]") {
  for (std::size_t n : {2, 8, 16, 64}) {
    std::vector<double> x(n), expected(n);
    double s = 0;
    for (std::size_t i = 0; i < n; ++i) {
      expected[i] = s;
      s += (x[i] = double((3 * i) % 7) - 2);
    }
    CHECK_CLOSE("exclusive scan of n = " << n, common::compare(scan::blelloch_exclusive_scan(x), expected, kExact));
  }
}

TEST_CASE("exercise 3: look_back sums aggregates back to the nearest prefix", "[exercise]") {
  using scan::TileFlag;
  // Tiles 0..4: P(5), A(2), A(-1), P(9), A(4); tile 5 looks back.
  const std::vector<scan::TileStatus> status{{TileFlag::prefix, 5}, {TileFlag::aggregate, 2}, {TileFlag::aggregate, -1},
                                             {TileFlag::prefix, 9}, {TileFlag::aggregate, 4}, {TileFlag::not_ready, 0}};
  const auto five = scan::look_back(status, 5);
  INFO("tile 5 after P(5) A(2) A(-1) P(9) A(4): got ready " << five.ready << ", prefix " << five.exclusive_prefix
                                                            << ", inspected " << five.inspected);
  CHECK(five.ready);
  CHECK(five.exclusive_prefix == 13);  // 4 + 9: stops at tile 3's prefix
  CHECK(five.inspected == 2);
  const auto three = scan::look_back(status, 3);
  INFO("tile 3: got ready " << three.ready << ", prefix " << three.exclusive_prefix << ", inspected "
                            << three.inspected);
  CHECK(three.ready);
  CHECK(three.exclusive_prefix == 6);  // -1 + 2 + 5
  CHECK(three.inspected == 3);
}

TEST_CASE("exercise 3: look_back waits on a tile that has published nothing", "[exercise]") {
  using scan::TileFlag;
  const std::vector<scan::TileStatus> status{
      {TileFlag::prefix, 5}, {TileFlag::not_ready, 0}, {TileFlag::aggregate, 3}, {TileFlag::not_ready, 0}};
  const auto r = scan::look_back(status, 3);
  INFO("tile 3 after P(5) X A(3): got ready " << r.ready << ", inspected " << r.inspected);
  CHECK_FALSE(r.ready);
  CHECK(r.inspected == 2);
  const auto first = scan::look_back(status, 0);
  CHECK(first.ready);
  CHECK(first.exclusive_prefix == 0);
  CHECK(first.inspected == 0);
}

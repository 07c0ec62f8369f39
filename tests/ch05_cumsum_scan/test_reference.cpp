// The CPU side of chapter 05: the reference, and the claims the text makes about the inputs.
#include "ch05_test_support.hpp"
#include "reference.hpp"

#include <cmath>
#include <cstdint>

TEST_CASE("the reference is the running sum") {
  const std::vector<float> x{3, 1, 7, 0, 4, 1, 6, 3};
  const std::vector<double> expected{3, 4, 11, 11, 15, 16, 22, 25};
  CHECK_CLOSE("scan of 3 1 7 0 4 1 6 3", common::compare(scan::inclusive_scan_reference(x), expected, kExact));
  CHECK(scan::inclusive_scan_reference(std::vector<float>{}).empty());
}

TEST_CASE("integer inputs are whole numbers in -3..3 whose partial sums stay below 2^23") {
  for (std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(1) << 22}) {
    const auto x = scan::integer_input(n, 5);
    REQUIRE(x.size() == n);
    for (float v : x) {
      REQUIRE(v == std::round(v));
      REQUIRE(std::abs(v) <= 3);
    }
    CHECK(scan::max_abs_prefix(x) < scan::kExactLimit);
  }
}

TEST_CASE("on whole numbers the fp32 loop is exact, in any order of additions") {
  const auto x = scan::integer_input((1 << 20) + 7, 6);
  const auto reference = scan::inclusive_scan_reference(x);
  CHECK_CLOSE("sequential fp32", common::compare(scan::inclusive_scan_fp32(x), reference, kExact));
  // Another order: blocks of 1000 summed first, then carried -- still exact.
  std::vector<float> blocked(x.size());
  float carry = 0;
  for (std::size_t base = 0; base < x.size(); base += 1000) {
    float local = 0;
    const std::size_t end = std::min(x.size(), base + 1000);
    for (std::size_t i = base; i < end; ++i) blocked[i] = carry + (local += x[i]);
    carry += local;
  }
  CHECK_CLOSE("blocked fp32", common::compare(blocked, reference, kExact));
}

TEST_CASE("on real inputs the fp32 loop is not exact, and its error grows with N") {
  auto error = [](std::size_t n) {
    const auto u = scan::uniform_input(n, 7);
    return common::compare(scan::inclusive_scan_fp32(u), scan::inclusive_scan_reference(u), {1, 0}).max_rel_error;
  };
  const double small = error(1 << 10), large = error(1 << 20);
  CHECK(large > 0);
  CHECK(large > 10 * small);
}

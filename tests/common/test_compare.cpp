#include <catch2/catch.hpp>

#include "compare.hpp"
#include "cuda_check.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using common::compare;
using common::Tolerance;

TEST_CASE("compare accepts values inside atol + rtol·|ref| and rejects values outside") {
  const std::vector<double> expected{1.0, -2.0, 0.0, 100.0};
  const Tolerance tol{1e-3, 1e-2};  // bounds: 0.011, 0.021, 0.001, 1.001
  SECTION("inside, up to the bound") {
    const std::vector<double> got{1.0109, -2.0209, 0.00099, 100.9};
    const auto c = compare(got, expected, tol);
    CHECK(c.ok);
    CHECK(c.failures == 0);
    CHECK(c.max_abs_error == Approx(0.9).epsilon(1e-9));
  }
  SECTION("one element just past its bound") {
    const std::vector<double> got{1.0, -2.0, 0.0011, 100.0};
    const auto c = compare(got, expected, tol);
    CHECK_FALSE(c.ok);
    CHECK(c.failures == 1);
    CHECK(c.worst_index == 2);
    CHECK(c.worst_got == 0.0011);
    CHECK(c.worst_expected == 0.0);
  }
}

TEST_CASE("compare fails on NaN and Inf, in the result or the reference") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const Tolerance loose{1e9, 1e9};  // no finite error could fail this
  CHECK_FALSE(compare(std::vector<double>{1, nan, 3}, std::vector<double>{1, 2, 3}, loose).ok);
  CHECK_FALSE(compare(std::vector<double>{1, inf, 3}, std::vector<double>{1, 2, 3}, loose).ok);
  CHECK_FALSE(compare(std::vector<double>{1, 2, 3}, std::vector<double>{1, nan, 3}, loose).ok);
  const auto c =
      compare(std::vector<float>{1, 2, std::nanf(""), std::nanf("")}, std::vector<double>{1, 2, 3, 4}, loose);
  CHECK(c.non_finite == 2);
  CHECK(c.worst_index == 2);  // the first non-finite element is the one reported
}

TEST_CASE("a poisoned (all-ones bytes) float is NaN and fails") {
  float poisoned;
  std::memset(&poisoned, 0xFF, sizeof poisoned);
  CHECK_FALSE(compare(std::vector<float>{poisoned}, std::vector<double>{0.0}, Tolerance{1, 1}).ok);
}

TEST_CASE("compare reports relative error and refuses empty or mismatched inputs") {
  const auto c = compare(std::vector<double>{1.1, 0.5}, std::vector<double>{1.0, 0.0}, Tolerance{1, 0});
  CHECK(c.ok);
  CHECK(c.max_rel_error == Approx(0.1));  // the element with reference 0 has no relative error
  CHECK_FALSE(compare(std::vector<double>{}, std::vector<double>{}, Tolerance{1, 1}).ok);
  CHECK_THROWS(compare(std::vector<double>{1}, std::vector<double>{1, 2}, Tolerance{1, 1}));
}

TEST_CASE("the summary names the worst element with its expected and actual values") {
  const auto c = compare(std::vector<double>{0, 7}, std::vector<double>{0, 5}, Tolerance{1e-6, 0});
  const std::string text = c.summary([](std::size_t i) { return "t=" + std::to_string(i); });
  CHECK_THAT(text, Catch::Contains("worst at t=1"));
  CHECK_THAT(text, Catch::Contains("expected 5"));
  CHECK_THAT(text, Catch::Contains("got 7"));
}

TEST_CASE("the worst element is the one furthest past its bound, not the first one that fails") {
  SECTION("relative bounds") {
    // bounds 0.01, 0.1, 1: errors 0.02 (2×), 0.5 (5×), 3 (3×)
    const auto c = compare(std::vector<double>{1.02, 10.5, 103}, std::vector<double>{1, 10, 100}, Tolerance{0, 1e-2});
    CHECK(c.failures == 3);
    CHECK(c.worst_index == 1);
    CHECK_THAT(c.summary(), Catch::Contains("worst at [1]: expected 10, got 10.5"));
  }
  SECTION("a bound of 0 (reference 0, no atol): the largest error") {
    const auto c = compare(std::vector<double>{0, 1, 5, 2}, std::vector<double>{0, 0, 0, 0}, Tolerance{0, 1e-3});
    CHECK(c.failures == 3);
    CHECK(c.worst_index == 2);
  }
  SECTION("a non-finite element is named first, and as such") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const auto c = compare(std::vector<double>{9, nan, nan}, std::vector<double>{0, 0, 0}, Tolerance{1, 0});
    CHECK(c.worst_index == 1);
    CHECK_THAT(c.summary(), Catch::Contains("first non-finite at [1]"));
  }
}

TEST_CASE("CUDA_CHECK turns an error code into an exception with the call, file:line and CUDA's message") {
  try {
    CUDA_CHECK(cudaErrorMemoryAllocation);
    FAIL("no exception");
  } catch (const common::CudaError& e) {
    CHECK(e.code() == cudaErrorMemoryAllocation);
    CHECK_THAT(e.what(), Catch::Contains("test_compare.cpp:"));
    CHECK_THAT(e.what(), Catch::Contains("cudaErrorMemoryAllocation"));
    CHECK_THAT(e.what(), Catch::Contains("out of memory"));
  }
}

// Small helpers shared by chapter 06's tests.
#pragma once

#include "compare.hpp"

#include <catch2/catch.hpp>

// Fails the test case with the comparison's report (worst element, expected, got).
#define CHECK_CLOSE(what, comparison)             \
  do {                                            \
    const ::common::Comparison c_ = (comparison); \
    INFO(what << ": " << c_.summary());           \
    CHECK(c_.ok);                                 \
  } while (0)

// With a_k in [0.95, 1) and |b_k| < 1, |h| stays below 1/(1 − 0.95) = 20 and an error made
// at one step fades by the same factor: the fp32 error of any order of evaluation stays near
// u·20·20 ≈ 2e-5 at every L (the README derives it). A wrong carry is off by O(1).
inline constexpr common::Tolerance kFp32{1e-4, 1e-4};
inline constexpr double kDecayLo = 0.95, kDecayHi = 1.0;

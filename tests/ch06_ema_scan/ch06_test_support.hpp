// Small helpers shared by chapter 06's tests.
#pragma once

#include "check_close.hpp"
#include "compare.hpp"

#include <catch2/catch.hpp>

// With a_k in [0.95, 1) and |b_k| < 1, |h| stays below 1/(1 − 0.95) = 20 and an error made
// at one step fades by the same factor: the fp32 error of any order of evaluation stays near
// u·20·20 ≈ 2e-5 at every L (the README derives it). A wrong carry is off by O(1).
inline constexpr common::Tolerance kFp32{1e-4, 1e-4};
inline constexpr double kDecayLo = 0.95, kDecayHi = 1.0;

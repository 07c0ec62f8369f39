// Small helpers shared by chapter 05's tests.
#pragma once

#include "compare.hpp"

#include <catch2/catch.hpp>

#include <string>

// Fails the test case with the comparison's report (worst element, expected, got) when the
// comparison failed; `what` names the quantity and the input.
#define CHECK_CLOSE(what, comparison)             \
  do {                                            \
    const ::common::Comparison c_ = (comparison); \
    INFO(what << ": " << c_.summary());           \
    CHECK(c_.ok);                                 \
  } while (0)

// Every scan of whole-number inputs must be exact (reference.hpp says why).
inline constexpr common::Tolerance kExact{0.0, 0.0};

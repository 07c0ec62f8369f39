// The check every chapter's tests use to compare a result with its fp64 reference.
#pragma once

#include "compare.hpp"

#include <catch2/catch.hpp>

// Fails the test case with the comparison's report (worst element, expected, got) when the
// comparison failed; `what` names the quantity and the input.
#define CHECK_CLOSE(what, comparison)   \
  do {                                  \
    const auto c_ = (comparison);       \
    INFO(what << ": " << c_.summary()); \
    CHECK(c_.ok);                       \
  } while (0)

// Small helpers shared by chapter 04's tests.
#pragma once

#include "bound_check.hpp"
#include "compare.hpp"
#include "hippo.hpp"

#include <catch2/catch.hpp>

#include <vector>

// Fails the test case with the comparison's report (worst element, expected, got) when the
// comparison failed; `what` names the quantity and the input.
#define CHECK_CLOSE(what, comparison)             \
  do {                                            \
    const auto c_ = (comparison);                 \
    INFO(what << ": " << c_.summary());           \
    CHECK(c_.ok);                                 \
  } while (0)

inline std::vector<double> as_vector(const hippo::Vector& v) { return {v.data(), v.data() + v.size()}; }
inline std::vector<double> as_vector(const hippo::Matrix& m) { return {m.data(), m.data() + m.size()}; }

// What chapter 09's CPU tests share: a check macro that prints the comparison, and the tiny
// models and batches of check_problems.hpp.
#pragma once

#include "check_problems.hpp"
#include "compare.hpp"
#include "model_config.hpp"
#include "selective_copying.hpp"

#include <catch2/catch.hpp>

#include <random>
#include <vector>

#define CHECK_CLOSE(what, comparison)             \
  do {                                            \
    const ::common::Comparison c_ = (comparison); \
    INFO(what << ": " << c_.summary());           \
    CHECK(c_.ok);                                 \
  } while (0)

namespace ch09_test {

// The tiny models and random batches of the chapter's own checks (check_problems.hpp).
using ch09::random_batch;
using ch09::tiny_config;
using ch09::tiny_parameters;

}  // namespace ch09_test

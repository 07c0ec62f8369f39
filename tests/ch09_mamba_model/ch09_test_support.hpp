// What chapter 09's CPU tests share: CHECK_CLOSE (check_close.hpp), and the tiny models and
// batches of check_problems.hpp.
#pragma once

#include "check_close.hpp"
#include "check_problems.hpp"
#include "compare.hpp"
#include "model_config.hpp"
#include "selective_copying.hpp"

#include <catch2/catch.hpp>

#include <random>
#include <vector>

namespace ch09_test {

// The tiny models and random batches of the chapter's own checks (check_problems.hpp).
using ch09::random_batch;
using ch09::tiny_config;
using ch09::tiny_parameters;

}  // namespace ch09_test

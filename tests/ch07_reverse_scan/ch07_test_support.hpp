// Small helpers shared by chapter 07's tests.
#pragma once

#include "check_close.hpp"
#include "compare.hpp"
#include "reference.hpp"

#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

// A problem with decays a in [lo, hi) and inputs and targets in [−1, 1).
struct Inputs {
  rscan::Shape shape;
  std::vector<double> a, b, target;
};

inline Inputs random_inputs(rscan::Shape shape, unsigned seed, double lo = 0.3, double hi = 0.95) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> decay(lo, hi), unit(-1.0, 1.0);
  Inputs in{shape, std::vector<double>(shape.size()), std::vector<double>(shape.size()),
            std::vector<double>(shape.size())};
  for (std::size_t i = 0; i < shape.size(); ++i) {
    in.a[i] = decay(rng);
    in.b[i] = unit(rng);
    in.target[i] = unit(rng);
  }
  return in;
}

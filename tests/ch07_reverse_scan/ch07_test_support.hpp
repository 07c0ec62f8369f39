// Small helpers shared by chapter 07's tests.
#pragma once

#include "check_close.hpp"
#include "compare.hpp"
#include "reference.hpp"

#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

// The GPU's fp32 gradients against the fp64 reverse pass: the decays stay below 0.95, so g and h
// stay below 20 in size and an error made at one step fades geometrically; these bounds leave a
// wide margin.
constexpr common::Tolerance kGradB{2e-4, 2e-4};
constexpr common::Tolerance kGradA{2e-3, 2e-4};

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

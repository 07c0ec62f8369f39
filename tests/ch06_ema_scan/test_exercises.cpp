// Chapter 06's exercises: the pair operator and the block-carry combine.
#include "ch06_test_support.hpp"
#include "reference.hpp"

#include <random>
#include <vector>

using ema::Pair;

TEST_CASE("exercise 1: compose_maps composes h -> a1 h + b1, then h -> a2 h + b2", "[exercise]") {
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> d(-2.0, 2.0);
  std::vector<double> got, expected;
  for (int i = 0; i < 8; ++i) {
    const Pair<double> first{d(rng), d(rng)}, second{d(rng), d(rng)};
    const auto c = ema::compose_maps(first, second);
    got.insert(got.end(), {c.a, c.b});
    expected.insert(expected.end(), {first.a * second.a, second.a * first.b + second.b});
  }
  CHECK_CLOSE("compose_maps on 8 random pairs (a, b interleaved)", common::compare(got, expected, {1e-12, 1e-12}));
}

TEST_CASE("exercise 2: carry_into_chunk corrects a chunk's local scan with the state before it", "[exercise]") {
  // Two chunks of one sequence; the second one's local scan is corrected with h at the end of the first.
  const auto p = ema::random_problem(1, 64, 0.5, 1.0, 2);
  const auto expected = ema::recurrence_reference(p);
  std::vector<Pair<double>> chunk;
  Pair<double> running = ema::identity<double>();
  for (std::size_t k = 32; k < 64; ++k) chunk.push_back(running = ema::combine(running, Pair<double>{p.a[k], p.b[k]}));
  const auto got = ema::carry_into_chunk(chunk, expected[31]);
  CHECK_CLOSE("carry_into_chunk, chunk 32..63, h_before = " << expected[31],
              common::compare(got, std::vector<double>(expected.begin() + 32, expected.end()), {1e-12, 1e-12}));
}

// The formulas of chapter 06's text, on the CPU.
#include "ch06_test_support.hpp"
#include "reference.hpp"

#include <cmath>
#include <random>
#include <vector>

using ema::Pair;

namespace {
const std::size_t kSizes[] = {1, 2, 31, 33, 1000, (1 << 20) + 7};

Pair<double> random_pair(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> d(-2.0, 2.0);
  return {d(rng), d(rng)};
}
}  // namespace

TEST_CASE("the pair operator is associative and (1, 0) is its identity on both sides") {
  std::mt19937_64 rng(6);
  for (int i = 0; i < 1000; ++i) {
    const auto p = random_pair(rng), q = random_pair(rng), r = random_pair(rng);
    const auto left = ema::combine(ema::combine(p, q), r), right = ema::combine(p, ema::combine(q, r));
    INFO("p = (" << p.a << ", " << p.b << "), q = (" << q.a << ", " << q.b << "), r = (" << r.a << ", " << r.b << ")");
    CHECK(std::abs(left.a - right.a) <= 1e-13);
    CHECK(std::abs(left.b - right.b) <= 1e-13);
    const auto e = ema::identity<double>();
    CHECK(ema::combine(e, p).a == p.a);
    CHECK(ema::combine(e, p).b == p.b);
    CHECK(ema::combine(p, e).a == p.a);
    CHECK(ema::combine(p, e).b == p.b);
  }
}

TEST_CASE("composing pairs is composing the maps h -> a h + b") {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100; ++i) {
    const auto p = random_pair(rng), q = random_pair(rng);
    const double h = 0.37 * i - 5;
    CHECK(std::abs(ema::apply(ema::combine(p, q), h) - ema::apply(q, ema::apply(p, h))) <= 1e-12);
  }
}

TEST_CASE("the pair operator is not commutative") {
  const Pair<double> p{0.5, 1.0}, q{2.0, 3.0};
  CHECK(ema::combine(p, q).b == 5.0);  // 2·1 + 3
  CHECK(ema::combine(q, p).b == 2.5);  // 0.5·3 + 1
}

TEST_CASE("the EMA's impulse response is (1 − α) α^k") {
  for (double alpha : {0.5, 0.9, 0.99}) {
    std::vector<float> x(200, 0.f);
    x[0] = 1.f;
    const auto h = ema::recurrence_reference(ema::ema_problem(alpha, x));
    std::vector<double> expected(x.size());
    for (std::size_t k = 0; k < x.size(); ++k) expected[k] = ema::ema_impulse_response(alpha, k);
    // α and 1 − α are rounded to fp32 in the problem: relative 1e-7, times k for α^k.
    CHECK_CLOSE("alpha = " << alpha, common::compare(h, expected, {1e-30, 5e-5}));
  }
}

TEST_CASE("the fp32 loop and the fp32 tree agree with fp64 on awkward sizes and batches") {
  for (std::size_t n : kSizes) {
    const auto p = ema::random_problem(1, n, kDecayLo, kDecayHi, 100 + n);
    const auto expected = ema::recurrence_reference(p);
    CHECK_CLOSE("loop, L = " << n, common::compare(ema::recurrence_fp32(p), expected, kFp32));
    CHECK_CLOSE("tree, L = " << n, common::compare(ema::recurrence_tree_fp32(p), expected, kFp32));
  }
  const auto p = ema::random_problem(5, 1001, kDecayLo, kDecayHi, 3);
  CHECK_CLOSE("tree, batch 5 × 1001",
              common::compare(ema::recurrence_tree_fp32(p), ema::recurrence_reference(p), kFp32));
}

TEST_CASE("the sequences of a batch are independent: each starts from h = 0") {
  auto p = ema::random_problem(2, 3, 1.0, 1.0, 1);
  p.b = {1, 1, 1, 2, 2, 2};
  const auto h = ema::recurrence_reference(p);
  CHECK(h == std::vector<double>{1, 2, 3, 2, 4, 6});
}

TEST_CASE("0.5^k underflows fp32 to exactly 0 after k = 149, while h stays accurate") {
  const std::vector<float> a(200, 0.5f);
  const auto product = ema::running_product_fp32(a);
  CHECK(product[148] == std::ldexp(1.0f, -149));  // running product after k+1 factors: 2^-(k+1)
  CHECK(product[149] == 0.0f);
  CHECK(ema::running_product_fp64(a)[199] == std::ldexp(1.0, -200));
  auto p = ema::random_problem(1, 200, 0.5, 0.5, 9);
  CHECK_CLOSE("h with a = 0.5",
              common::compare(ema::recurrence_tree_fp32(p), ema::recurrence_reference(p), {1e-6, 1e-6}));
}

TEST_CASE("a prefix h is the map (0, h): maps composed after it give the state they reach from h") {
  // Version 5's look-back composes a window whose farthest counted tile may be a prefix; as
  // the map (0, h) it forgets whatever comes before it and the composition's b is the state.
  std::mt19937_64 rng(65);
  for (int i = 0; i < 1000; ++i) {
    const double h = random_pair(rng).b;
    const auto p = random_pair(rng), q = random_pair(rng), before = random_pair(rng);
    const auto window = ema::combine(ema::combine(before, Pair<double>{0, h}), ema::combine(p, q));
    INFO("h = " << h << ", p = (" << p.a << ", " << p.b << "), q = (" << q.a << ", " << q.b << ")");
    CHECK(window.a == 0);
    CHECK(std::abs(window.b - ema::apply(q, ema::apply(p, h))) <= 1e-13);
  }
}

// make_official_test_problem: the official test suite's distributions, shapes that follow the
// flags, and the same data for the same seed.
#include "ch08_test_support.hpp"

#include <algorithm>
#include <cmath>

using ch08::Complex;
using ch08::Problem;

namespace {

Problem every_flag(bool complex) {
  Problem shape;
  shape.batch = 4;
  shape.dim = 64;
  shape.seqlen = 256;
  shape.dstate = 8;
  shape.groups = 2;
  shape.complex = complex;
  shape.has_D = shape.has_z = shape.has_delta_bias = shape.delta_softplus = shape.has_initial_state = true;
  return shape;
}

struct Moments {
  double mean = 0, variance = 0;
};

Moments moments(const std::vector<double>& v) {
  Moments m;
  for (double x : v) m.mean += x;
  m.mean /= double(v.size());
  for (double x : v) m.variance += (x - m.mean) * (x - m.mean);
  m.variance /= double(v.size() - 1);
  return m;
}

std::vector<double> real_parts(const std::vector<Complex>& v) {
  std::vector<double> r;
  for (const Complex& x : v) r.push_back(x.real());
  return r;
}

std::vector<double> imaginary_parts(const std::vector<Complex>& v) {
  std::vector<double> r;
  for (const Complex& x : v) r.push_back(x.imag());
  return r;
}

// Every value in [low, high).
bool all_in(const std::vector<double>& v, double low, double high) {
  return std::all_of(v.begin(), v.end(), [&](double x) { return x >= low && x < high; });
}

// Every value in (−0.5, 0]: −0.5 U[0, 1).
bool all_negative_half_uniform(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [](double x) { return x > -0.5 && x <= 0.0; });
}

// N(0, 1) over n samples: the mean within 5 standard errors (5/√n) and the variance within
// 5 standard errors of a sample variance (5·√(2/n)).
void check_standard_normal(const char* what, const std::vector<double>& v) {
  const Moments m = moments(v);
  const double n = double(v.size());
  INFO(what << ": " << v.size() << " samples, mean " << m.mean << ", variance " << m.variance);
  CHECK(std::abs(m.mean) < 5 / std::sqrt(n));
  CHECK(std::abs(m.variance - 1) < 5 * std::sqrt(2 / n));
}

// U[0, 1) scaled by `scale`: mean scale/2, variance scale²/12, within 5 standard errors (of the
// variance: the normal's standard error, larger than the uniform's, so the bound is loose).
void check_scaled_uniform(const char* what, const std::vector<double>& v, double scale) {
  const Moments m = moments(v);
  const double n = double(v.size());
  INFO(what << ": " << v.size() << " samples, mean " << m.mean << ", variance " << m.variance);
  CHECK(std::abs(m.mean - scale / 2) < 5 * std::abs(scale) / std::sqrt(12 * n));
  CHECK(std::abs(m.variance - scale * scale / 12) < 5 * scale * scale / 12 * std::sqrt(2 / n));
}

}  // namespace

TEST_CASE("official test problem: every tensor has the shape its flags ask for") {
  for (bool variable : {false, true}) {
    Problem shape = every_flag(false);
    shape.variable_B = shape.variable_C = variable;
    shape.groups = variable ? 2 : 1;
    const Problem p = ch08::make_official_test_problem(shape, 1);
    const std::size_t sequence = 4 * 64 * 256;
    CHECK(p.u.size() == sequence);
    CHECK(p.delta.size() == sequence);
    CHECK(p.z.size() == sequence);
    CHECK(p.A.size() == 64 * 8);
    CHECK(p.B.size() == (variable ? 4 * 2 * 8 * 256 : 64 * 8));
    CHECK(p.C.size() == p.B.size());
    CHECK(p.D.size() == 64);
    CHECK(p.delta_bias.size() == 64);
    CHECK(p.initial_state.size() == 4 * 64 * 8);
  }
  Problem shape = every_flag(false);
  shape.has_D = shape.has_z = shape.has_delta_bias = shape.has_initial_state = false;
  const Problem p = ch08::make_official_test_problem(shape, 1);
  CHECK(p.z.empty());
  CHECK(p.D.empty());
  CHECK(p.delta_bias.empty());
  CHECK(p.initial_state.empty());
}

TEST_CASE("official test problem: the official suite's ranges and distributions") {
  for (bool complex : {false, true}) {
    INFO((complex ? "complex" : "real"));
    const Problem p = ch08::make_official_test_problem(every_flag(complex), 2);
    // A = −0.5 U[0, 1): both parts when complex, a zero imaginary part when real.
    CHECK(all_negative_half_uniform(real_parts(p.A)));
    CHECK(all_in(p.delta, 0.0, 0.5));
    CHECK(all_in(p.delta_bias, 0.0, 0.5));
    check_scaled_uniform("delta", p.delta, 0.5);
    check_scaled_uniform("Re A", real_parts(p.A), -0.5);
    check_standard_normal("u", p.u);
    check_standard_normal("z", p.z);
    check_standard_normal("Re B", real_parts(p.B));
    check_standard_normal("Re C", real_parts(p.C));
    check_standard_normal("Re initial state", real_parts(p.initial_state));
    if (complex) {
      CHECK(all_negative_half_uniform(imaginary_parts(p.A)));
      check_scaled_uniform("Im A", imaginary_parts(p.A), -0.5);
      check_standard_normal("Im B", imaginary_parts(p.B));
      check_standard_normal("Im C", imaginary_parts(p.C));
    } else {
      for (const auto* v : {&p.A, &p.B, &p.C, &p.initial_state})
        for (const Complex& x : *v) CHECK(x.imag() == 0.0);
    }
  }
  // D has one value per channel: a wide problem gives enough of them.
  Problem wide;
  wide.dim = 20000;
  wide.has_D = true;
  check_standard_normal("D", ch08::make_official_test_problem(wide, 3).D);
}

TEST_CASE("official test problem: the same seed gives the same data, another seed other data") {
  const Problem shape = every_flag(true);
  const Problem a = ch08::make_official_test_problem(shape, 42), b = ch08::make_official_test_problem(shape, 42),
                c = ch08::make_official_test_problem(shape, 43);
  CHECK(a.u == b.u);
  CHECK(a.delta == b.delta);
  CHECK(a.z == b.z);
  CHECK(a.A == b.A);
  CHECK(a.B == b.B);
  CHECK(a.C == b.C);
  CHECK(a.D == b.D);
  CHECK(a.delta_bias == b.delta_bias);
  CHECK(a.initial_state == b.initial_state);
  CHECK(a.u != c.u);
  CHECK(a.A != c.A);
  CHECK(a.B != c.B);
}

TEST_CASE("official test problem: switching a flag leaves every other tensor of the seed as it was") {
  Problem shape = every_flag(false);
  const Problem with = ch08::make_official_test_problem(shape, 6);
  shape.has_z = shape.has_D = false;
  const Problem without = ch08::make_official_test_problem(shape, 6);
  CHECK(with.u == without.u);
  CHECK(with.delta == without.delta);
  CHECK(with.B == without.B);
  CHECK(with.delta_bias == without.delta_bias);
}

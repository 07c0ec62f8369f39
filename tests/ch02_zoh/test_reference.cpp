// Every formula chapter 02 states, checked on the CPU in fp64.
#include "ch02_test_support.hpp"
#include "diagonal.hpp"
#include "discretize.hpp"
#include "oscillator.hpp"
#include "selective.hpp"

#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

using zoh::Method;

namespace {

// A random, well-conditioned n × n system: A = −2I + a Gaussian perturbation of size 1/√n.
zoh::ContinuousSsm random_system(int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  zoh::ContinuousSsm s{n, std::vector<double>(std::size_t(n) * n), std::vector<double>(n), std::vector<double>(n), 0.3};
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) s.A[std::size_t(i) * n + j] = (i == j ? -2.0 : 0.0) + normal(rng) / std::sqrt(n);
  for (int i = 0; i < n; ++i) s.B[i] = normal(rng), s.C[i] = normal(rng);
  return s;
}

zoh::ContinuousSsm diagonal_system(const std::vector<double>& a, const std::vector<double>& b) {
  const int n = int(a.size());
  zoh::ContinuousSsm s{n, std::vector<double>(std::size_t(n) * n, 0.0), b, std::vector<double>(n, 1.0), 0};
  for (int i = 0; i < n; ++i) s.A[std::size_t(i) * n + i] = a[i];
  return s;
}

double max_staircase_error(Method method, int m) {
  const zoh::Oscillator o{2.0, 0.2};
  const std::vector<double> levels{0.3, -1.0, 0.7, 0.7, 0.0, -0.4};
  const auto x = zoh::staircase_samples(levels, m);
  const auto y = zoh::simulate(zoh::discretize(o.system(), 1.0 / m, method), x);
  double worst = 0;
  for (std::size_t k = 0; k < y.size(); ++k)
    worst = std::max(worst, std::abs(y[k] - zoh::staircase_response(o, levels, 1.0, double(k + 1) / m)));
  return worst;
}

}  // namespace

TEST_CASE("ZOH through the block exponential equals A⁻¹(exp(ΔA) − I)B for an invertible A") {
  for (int n : {1, 3, 8}) {
    const auto s = random_system(n, 40 + n);
    for (double delta : {1e-3, 0.1, 1.0, 4.0}) {
      CHECK_CLOSE("B̄, n " << n << ", Δ " << delta, common::compare(zoh::discretize(s, delta, Method::zoh).Bbar,
                                                                   zoh::zoh_bbar_by_inverse(s, delta), {1e-15, 1e-12}));
      CHECK_CLOSE("Ā, n " << n << ", Δ " << delta, common::compare(zoh::discretize(s, delta, Method::zoh).Abar,
                                                                   zoh::matrix_exponential(
                                                                       [&] {
                                                                         auto m = s.A;
                                                                         for (double& v : m) v *= delta;
                                                                         return m;
                                                                       }(),
                                                                       n),
                                                                   {1e-15, 1e-13}));
    }
  }
}

TEST_CASE("ZOH of a singular A has no 0/0: the double integrator in closed form") {
  const zoh::ContinuousSsm integrator{2, {0, 1, 0, 0}, {0, 1}, {1, 0}, 0};
  for (double delta : {1e-12, 1e-3, 0.5, 10.0}) {
    const auto d = zoh::discretize(integrator, delta, Method::zoh);
    CHECK_CLOSE("Ā, Δ " << delta, common::compare(d.Abar, std::vector<double>{1, delta, 0, 1}, {1e-15, 1e-13}));
    CHECK_CLOSE("B̄, Δ " << delta,
                common::compare(d.Bbar, std::vector<double>{delta * delta / 2, delta}, {1e-15, 1e-13}));
  }
  CHECK_THROWS_AS(zoh::zoh_bbar_by_inverse(integrator, 0.5), std::invalid_argument);
}

TEST_CASE("dense and element-wise discretizations agree for a diagonal A with a = 0 included") {
  const std::vector<double> a{0.0, -1e-9, -0.5, -3.0, -16.0, 0.7};
  const std::vector<double> b{1.0, -2.0, 0.5, 0.25, 3.0, -1.0};
  for (Method method : zoh::kMethods) {
    for (double delta : {1e-10, 1e-4, 0.1, 1.5}) {
      const auto dense = zoh::discretize(diagonal_system(a, b), delta, method);
      const auto diagonal = zoh::discretize_diagonal(a, b, delta, method);
      std::vector<double> as_matrix(a.size() * a.size(), 0.0);
      for (std::size_t i = 0; i < a.size(); ++i) as_matrix[i * a.size() + i] = diagonal.abar[i];
      CHECK_CLOSE(zoh::name(method) << " Ā, Δ " << delta, common::compare(dense.Abar, as_matrix, {1e-15, 1e-13}));
      CHECK_CLOSE(zoh::name(method) << " B̄, Δ " << delta, common::compare(dense.Bbar, diagonal.bbar, {1e-15, 1e-13}));
    }
  }
}

TEST_CASE("the element-wise rules are the formulas of the text") {
  const double a = -3.0, b = 2.0, delta = 0.2, z = delta * a;
  const auto at = [&](Method m) { return zoh::discretize_diagonal({a}, {b}, delta, m); };
  CHECK(at(Method::zoh).abar[0] == Approx(std::exp(z)).epsilon(1e-15));
  CHECK(at(Method::zoh).bbar[0] == Approx((std::exp(z) - 1) / a * b).epsilon(1e-14));
  CHECK(at(Method::bilinear).abar[0] == Approx((1 + z / 2) / (1 - z / 2)).epsilon(1e-15));
  CHECK(at(Method::bilinear).bbar[0] == Approx(delta * b / (1 - z / 2)).epsilon(1e-15));
  CHECK(at(Method::euler).abar[0] == Approx(1 + z).epsilon(1e-15));
  CHECK(at(Method::euler).bbar[0] == Approx(delta * b).epsilon(1e-15));
  CHECK(at(Method::mamba).abar[0] == Approx(std::exp(z)).epsilon(1e-15));
  CHECK(at(Method::mamba).bbar[0] == Approx(delta * b).epsilon(1e-15));
}

TEST_CASE("the dense Euler and Mamba rules are I + ΔA with ΔB and exp(ΔA) with ΔB") {
  const auto s = random_system(4, 41);
  const double delta = 0.3;
  auto scaled = s.A;
  for (double& v : scaled) v *= delta;
  std::vector<double> euler_A = scaled, delta_B = s.B;
  for (int i = 0; i < 4; ++i) euler_A[std::size_t(i) * 4 + i] += 1;
  for (double& v : delta_B) v *= delta;
  CHECK_CLOSE("Euler Ā", common::compare(zoh::discretize(s, delta, Method::euler).Abar, euler_A, {1e-15, 1e-15}));
  CHECK_CLOSE("Euler B̄", common::compare(zoh::discretize(s, delta, Method::euler).Bbar, delta_B, {1e-15, 1e-15}));
  CHECK_CLOSE("Mamba Ā", common::compare(zoh::discretize(s, delta, Method::mamba).Abar,
                                         zoh::matrix_exponential(scaled, 4), {1e-15, 1e-14}));
  CHECK_CLOSE("Mamba B̄", common::compare(zoh::discretize(s, delta, Method::mamba).Bbar, delta_B, {1e-15, 1e-15}));
}

TEST_CASE("ZOH is exact for a piecewise-constant input at every step size") {
  for (int m : {1, 3, 10, 64, 500}) {
    const double error = max_staircase_error(Method::zoh, m);
    INFO("Δ = 1/" << m << ": largest error " << error);
    CHECK(error <= 1e-12);
  }
}

TEST_CASE("Euler and Mamba converge with order 1 and bilinear with order 2") {
  for (auto [method, order] :
       {std::pair{Method::euler, 1.0}, std::pair{Method::mamba, 1.0}, std::pair{Method::bilinear, 2.0}}) {
    const double p = std::log(max_staircase_error(method, 200) / max_staircase_error(method, 800)) / std::log(4.0);
    INFO(zoh::name(method) << ": measured order " << p);
    CHECK(std::abs(p - order) <= 0.1);
  }
}

TEST_CASE("simulate runs h_k = Ā h_{k-1} + B̄ x_k and y_k = C h_k + D x_k from h_{-1} = 0") {
  const zoh::DiscreteSsm s{1, {0.5}, {2.0}, {3.0}, -1.0};
  // h = 2, 1 + 2·(−1) = −1, −0.5 + 2·4 = 7.5;  y = 3h − x.
  CHECK_CLOSE("y",
              common::compare(zoh::simulate(s, {1.0, -1.0, 4.0}), std::vector<double>{5.0, -2.0, 18.5}, {0, 1e-15}));
}

TEST_CASE("the oscillator's closed forms: g = s' and g = C exp(tA) B") {
  const zoh::Oscillator o{2.0, 0.2};
  const auto s = o.system();
  for (double t : {0.1, 0.9, 2.5, 7.0}) {
    const double h = 1e-5;
    const double derivative = (o.step_response(t + h) - o.step_response(t - h)) / (2 * h);
    CHECK(o.impulse_response(t) == Approx(derivative).epsilon(1e-8));
    auto tA = s.A;
    for (double& v : tA) v *= t;
    const auto E = zoh::matrix_exponential(tA, 2);
    const double CexpB = E[0] * s.B[0] + E[1] * s.B[1];  // C = (1, 0)
    CHECK(o.impulse_response(t) == Approx(CexpB).epsilon(1e-13));
  }
  CHECK_THROWS_AS(zoh::Oscillator({2.0, 1.5}).system(), std::invalid_argument);
}

TEST_CASE("the ZOH-vs-Euler gap g(z) = 1 − z/(e^z − 1) on both sides of the series' switch") {
  for (double z : {-1e-12, -1e-5, -0.00999, -0.01001, -0.3, -2.0, -30.0, 1e-4, 3.0}) {
    INFO("z = " << z);
    CHECK(zoh::zoh_euler_gap(z) == Approx(gap_long_double(z)).epsilon(4e-14).margin(0));
  }
  // The first-order term: g ≈ z/2.
  CHECK(zoh::zoh_euler_gap(-1e-6) == Approx(-5e-7).epsilon(1e-6));
}

TEST_CASE("for a constant input Mamba's state settles at 1/φ₁(z) times ZOH's") {
  for (double delta : {0.05, 0.4}) {
    const zoh::ContinuousSsm scalar{1, {-3.0}, {1.0}, {1.0}, 0};
    CHECK(zoh::steady_state_gain(zoh::discretize(scalar, delta, Method::zoh)) == Approx(1.0 / 3.0).epsilon(1e-14));
    const double ratio = zoh::steady_state_gain(zoh::discretize(scalar, delta, Method::mamba)) / (1.0 / 3.0);
    CHECK(ratio == Approx(1.0 / phi1_long_double(-3.0 * delta)).epsilon(1e-13));
  }
}

TEST_CASE("the selective reference is the element-wise rule at every element") {
  const auto p = zoh::random_selective_problem({2, 3, 4, 5}, 42);
  for (zoh::Rule rule : {zoh::Rule::zoh, zoh::Rule::mamba}) {
    const auto r = zoh::discretize_selective_reference(p, rule);
    REQUIRE(r.abar.size() == 2u * 3 * 4 * 5);
    std::vector<double> abar, bbar;
    for (std::size_t t = 0; t < 6; ++t)
      for (std::size_t d = 0; d < 4; ++d) {
        std::vector<double> a(5), b(5);
        for (std::size_t n = 0; n < 5; ++n) a[n] = p.A[d * 5 + n], b[n] = p.B[t * 5 + n];
        const auto e =
            zoh::discretize_diagonal(a, b, p.delta[t * 4 + d], rule == zoh::Rule::zoh ? Method::zoh : Method::mamba);
        abar.insert(abar.end(), e.abar.begin(), e.abar.end());
        bbar.insert(bbar.end(), e.bbar.begin(), e.bbar.end());
      }
    CHECK_CLOSE("Ā, " << zoh::name(rule), common::compare(r.abar, abar, {0, 1e-15}));
    CHECK_CLOSE("B̄, " << zoh::name(rule), common::compare(r.bbar, bbar, {0, 1e-15}));
    CHECK(zoh::discretize_selective_reference(p, rule, 2).abar.size() == 2u * 4 * 5);
  }
}

TEST_CASE("the byte count and the fp32 tolerance are the stated formulas") {
  const zoh::SelectiveShape s{2, 3, 4, 5};
  CHECK(s.bytes_moved() == 4.0 * (2 * 120 + 24 + 20 + 30));
  const auto tol = zoh::fp32_tolerance(3.0);
  CHECK(tol.rtol == Approx(12.0 * std::ldexp(1.0, -24)).epsilon(1e-15));
}

TEST_CASE("bad arguments are refused with a clear message") {
  const auto s = random_system(2, 43);
  CHECK_THROWS_WITH(zoh::discretize(s, 0.0, Method::zoh), Catch::Contains("positive"));
  CHECK_THROWS_WITH(zoh::discretize(s, std::nan(""), Method::zoh), Catch::Contains("positive"));
  auto broken = s;
  broken.B.pop_back();
  CHECK_THROWS_WITH(zoh::discretize(broken, 0.1, Method::zoh), Catch::Contains("n × n"));
  CHECK_THROWS_AS(zoh::discretize_diagonal({1.0}, {1.0, 2.0}, 0.1, Method::zoh), std::invalid_argument);
  CHECK_THROWS_AS(zoh::random_selective_problem({0, 1, 1, 1}, 1), std::invalid_argument);
}

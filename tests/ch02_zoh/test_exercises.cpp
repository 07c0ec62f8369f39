// Chapter 02's exercises. In the `exercises` preset the stubs are compiled in place of the
// solutions, and every test here must fail -- showing the input, the expected value and the
// value got -- until the reader writes the solution.
#include "ch02_test_support.hpp"
#include "diagonal.hpp"
#include "discretize.hpp"
#include "gpu_discretize.hpp"
#include "gpu_test.hpp"
#include "oscillator.hpp"
#include "selective.hpp"

#include <cmath>
#include <vector>

TEST_CASE("exercise 1: phi1 is (e^z − 1)/z to full precision and 1 at z = 0", "[exercise]") {
  const std::vector<double> z{0.0, 1e-300, -1e-300, 1e-15, -1e-11, -1e-6, -0.25, 1.0, -7.0, -60.0, -800.0};
  std::vector<double> got, expected;
  for (double v : z) {
    got.push_back(zoh::phi1(v));
    expected.push_back(phi1_long_double(v));
  }
  CHECK_CLOSE("φ₁ at z = 0, ±1e-300, 1e-15, −1e-11, −1e-6, −0.25, 1, −7, −60, −800 (element i is z[i])",
              common::compare(got, expected, {0, 4e-16}));
}

TEST_CASE("exercise 2: discretize_bilinear gives (I − ΔA/2)⁻¹(I + ΔA/2) and (I − ΔA/2)⁻¹ΔB", "[exercise]") {
  // A 2 × 2 system whose inverse of M = I − ΔA/2 is written out by hand: M⁻¹ = adj(M)/det(M).
  const zoh::ContinuousSsm s{2, {-1.0, 2.0, -3.0, -0.5}, {1.0, -2.0}, {1.0, 1.0}, 0.5};
  for (double delta : {0.01, 0.3, 2.0}) {
    const double m00 = 1 + delta / 2, m01 = -delta, m10 = 1.5 * delta, m11 = 1 + delta / 4;  // I − ΔA/2
    const double p00 = 1 - delta / 2, p01 = delta, p10 = -1.5 * delta, p11 = 1 - delta / 4;  // I + ΔA/2
    const double det = m00 * m11 - m01 * m10;
    const double i00 = m11 / det, i01 = -m01 / det, i10 = -m10 / det, i11 = m00 / det;
    const std::vector<double> Abar{i00 * p00 + i01 * p10, i00 * p01 + i01 * p11, i10 * p00 + i11 * p10,
                                   i10 * p01 + i11 * p11};
    const std::vector<double> Bbar{delta * (i00 * 1.0 + i01 * -2.0), delta * (i10 * 1.0 + i11 * -2.0)};
    const auto d = zoh::discretize_bilinear(s, delta);
    CHECK_CLOSE("Ā for A = [[-1, 2], [-3, -0.5]], Δ = " << delta, common::compare(d.Abar, Abar, {1e-15, 1e-13}));
    CHECK_CLOSE("B̄ for B = (1, -2), Δ = " << delta, common::compare(d.Bbar, Bbar, {1e-15, 1e-13}));
    CHECK_CLOSE("C and D pass through",
                common::compare(std::vector<double>{d.C[0], d.C[1], d.D}, std::vector<double>{1.0, 1.0, 0.5}, {0, 0}));
  }
}

TEST_CASE("exercise 2: the bilinear rule is second-order accurate on the oscillator", "[exercise]") {
  const zoh::Oscillator o{2.0, 0.2};
  const std::vector<double> levels{1.0, -0.5, 0.25};
  std::vector<double> errors;
  for (int m : {100, 400}) {
    const auto y = zoh::simulate(zoh::discretize_bilinear(o.system(), 1.0 / m), zoh::staircase_samples(levels, m));
    double worst = 0;
    for (std::size_t k = 0; k < y.size(); ++k)
      worst = std::max(worst, std::abs(y[k] - zoh::staircase_response(o, levels, 1.0, double(k + 1) / m)));
    errors.push_back(worst);
  }
  const double order = std::log(errors[0] / errors[1]) / std::log(4.0);
  INFO("largest errors " << errors[0] << " (Δ = 1/100) and " << errors[1] << " (Δ = 1/400): measured order " << order
                         << ", expected 2");
  CHECK(std::abs(order - 2.0) <= 0.1);
}

TEST_CASE("exercise 3: the naive kernel (version 1) matches fp64", "[exercise][gpu]") {
  REQUIRE_GPU();
  for (const zoh::SelectiveShape& shape :
       {zoh::SelectiveShape{1, 1, 1, 1}, zoh::SelectiveShape{2, 3, 5, 7}, zoh::SelectiveShape{3, 17, 33, 16}}) {
    const auto problem = zoh::random_selective_problem(shape, 51);
    for (zoh::Rule rule : {zoh::Rule::zoh, zoh::Rule::mamba}) {
      const auto expected = zoh::discretize_selective_reference(problem, rule);
      zoh::GpuDiscretization gpu(problem);
      gpu.poison_outputs();
      gpu.run(zoh::Kernel::naive, rule);
      const auto tol = zoh::fp32_tolerance(zoh::max_abs_z(problem));
      const std::string input = std::string(zoh::name(rule)) + ", batch " + std::to_string(shape.batch) + ", L " +
                                std::to_string(shape.length) + ", D " + std::to_string(shape.channels) + ", N " +
                                std::to_string(shape.state);
      CHECK_CLOSE("Ā of kernel 1, " << input, common::compare(gpu.abar(), expected.abar, tol));
      CHECK_CLOSE("B̄ of kernel 1, " << input, common::compare(gpu.bbar(), expected.bbar, tol));
    }
  }
}

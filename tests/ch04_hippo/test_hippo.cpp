// Every formula of chapter 04's HiPPO half, in fp64: the Legendre tools, the LegS and LegT
// ODEs, the normal-plus-low-rank split, and the online recurrences.
#include "ch04_test_support.hpp"
#include "hippo.hpp"
#include "legendre.hpp"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <numbers>

using hippo::LegsStep;
using hippo::Vector;

TEST_CASE("legendre_values follows the closed forms of P_2 .. P_4") {
  for (double x : {-1.0, -0.3, 0.0, 0.7, 1.0}) {
    const auto p = hippo::legendre_values(5, x);
    CHECK(p[2] == Approx((3 * x * x - 1) / 2).margin(1e-15));
    CHECK(p[3] == Approx((5 * x * x * x - 3 * x) / 2).margin(1e-15));
    CHECK(p[4] == Approx((35 * std::pow(x, 4) - 30 * x * x + 3) / 8).margin(1e-15));
  }
}

TEST_CASE("Gauss-Legendre quadrature integrates P_n P_m to 2 δ_nm / (2n + 1)") {
  const auto q = hippo::gauss_legendre(20);
  for (int n = 0; n < 15; ++n)
    for (int m = 0; m < 15; ++m) {
      double integral = 0;
      for (std::size_t i = 0; i < q.nodes.size(); ++i) {
        const auto p = hippo::legendre_values(15, q.nodes[i]);
        integral += q.weights[i] * p[n] * p[m];
      }
      CHECK(integral == Approx(n == m ? 2.0 / (2 * n + 1) : 0.0).margin(1e-13));
    }
}

TEST_CASE("legendre_integrals are the integrals of P_n from -1") {
  const auto q = hippo::gauss_legendre(30);
  for (double x : {-0.5, 0.2, 1.0}) {
    const auto closed = hippo::legendre_integrals(10, x);
    for (int n = 0; n < 10; ++n) {
      double integral = 0;  // ∫_{-1}^{x} P_n, mapped onto the quadrature's [−1, 1]
      for (std::size_t i = 0; i < q.nodes.size(); ++i) {
        const double s = -1 + (x + 1) * (q.nodes[i] + 1) / 2;
        integral += (x + 1) / 2 * q.weights[i] * hippo::legendre_values(n + 1, s)[n];
      }
      CHECK(closed[n] == Approx(integral).margin(1e-13));
    }
  }
}

TEST_CASE("LegS: the exact projection obeys dc/dt = (A c + B f) / t") {
  auto f = [](double s) { return std::exp(-s) * std::sin(5 * s) + s * s; };
  for (int N : {1, 5, 16})
    for (double t : {0.3, 1.0, 2.5}) {
      const auto op = hippo::legs(N);
      const double h = 1e-4 * t;
      const Vector dc = (hippo::legs_projection(f, t + h, N) - hippo::legs_projection(f, t - h, N)) / (2 * h);
      const Vector rhs = (op.A * hippo::legs_projection(f, t, N) + op.B * f(t)) / t;
      CHECK_CLOSE("N " << N << ", t " << t, common::compare(as_vector(dc), as_vector(rhs), {1e-7, 1e-7}));
    }
}

TEST_CASE("LegT: dc/dt = A c + B f holds exactly for polynomials of degree < N") {
  auto f = [](double s) { return 2 - s + 0.25 * std::pow(s, 5); };  // degree 5
  for (int N : {6, 10})
    for (double theta : {0.5, 2.0}) {
      const auto op = hippo::legt(N, theta);
      const double t = 1.5, h = 1e-4;
      const Vector dc =
          (hippo::legt_projection(f, t + h, theta, N) - hippo::legt_projection(f, t - h, theta, N)) / (2 * h);
      const Vector rhs = op.A * hippo::legt_projection(f, t, theta, N) + op.B * f(t);
      CHECK_CLOSE("N " << N << ", θ " << theta, common::compare(as_vector(dc), as_vector(rhs), {1e-7, 1e-7}));
    }
}

TEST_CASE("LegS = normal − P Pᵀ, the normal part is −½ I + skew, its eigenvalues −½ + iω") {
  for (int N : {1, 2, 7, 64}) {
    const auto split = hippo::legs_normal_plus_low_rank(N);
    const hippo::Matrix A = hippo::legs(N).A;
    CHECK_CLOSE("A_normal − P Pᵀ, N " << N,
                common::compare(as_vector(hippo::Matrix(split.normal - split.P * split.P.transpose())), as_vector(A),
                                {1e-12, 0}));
    const hippo::Matrix S = split.normal + 0.5 * hippo::Matrix::Identity(N, N);
    CHECK_CLOSE("S + Sᵀ, N " << N, common::compare(as_vector(hippo::Matrix(S + S.transpose())),
                                                   std::vector<double>(N * N, 0.0), {1e-12, 0}));
    Eigen::EigenSolver<hippo::Matrix> solver(split.normal, false);
    std::vector<double> re;
    for (int n = 0; n < N; ++n) re.push_back(solver.eigenvalues()[n].real());
    CHECK_CLOSE("Re λ(A_normal), N " << N, common::compare(re, std::vector<double>(N, -0.5), {1e-10, 0}));
  }
}

TEST_CASE("LegS bilinear with N = 1 is the running mean") {
  const std::vector<double> f{3, -1, 4, 1, -5, 9, 2};
  const auto states = hippo::legs_online(1, f, LegsStep::bilinear, {1, 2, 3, 4, 5, 6, 7});
  double sum = 0;
  for (int k = 1; k <= 7; ++k) {
    sum += f[k - 1];
    CHECK(states[k - 1][0] == Approx(sum / k).margin(1e-14));
  }
}

TEST_CASE("LegS recurrences land on the exact projection of the samples") {
  std::vector<double> f(4000);
  for (std::size_t k = 0; k < f.size(); ++k) f[k] = std::sin(0.01 * k) + (k > 1500 ? 0.5 : 0.0);
  for (int N : {4, 16, 48}) {
    const Vector exact = hippo::legs_projection_of_samples(N, f, 4000);
    const double scale = exact.norm();
    const Vector bilinear = hippo::legs_online(N, f, LegsStep::bilinear).back();
    const Vector euler = hippo::legs_online(N, f, LegsStep::euler).back();
    INFO("N " << N);
    CHECK((bilinear - exact).norm() / scale < 1e-3);
    CHECK((euler - exact).norm() / scale < 5e-2);  // first order, and worse for larger N
    CHECK((bilinear - exact).norm() < (euler - exact).norm());
  }
}

TEST_CASE("the LegS reconstruction error falls with N") {
  const int L = 3000;
  std::vector<double> f(L);
  for (int k = 0; k < L; ++k) {
    const double t = (k + 0.5) / L;
    f[k] =
        std::sin(2 * std::numbers::pi * 3 * t) + 0.5 * std::cos(2 * std::numbers::pi * 7.5 * t) + (t > 0.6 ? 0.3 : 0);
  }
  double previous = 1e300;
  for (int N : {2, 4, 8, 16, 32, 64}) {
    const double error = hippo::relative_rms_error(
        hippo::legs_reconstruction(hippo::legs_online(N, f, LegsStep::bilinear).back(), L), f);
    INFO("N " << N << ": rms error " << error << ", at N/2: " << previous);
    CHECK(error < previous);
    previous = error;
  }
  CHECK(previous < 0.1);
}

TEST_CASE("LegT's bilinear step is (I − A/2)⁻¹(I + A/2), and its memory ends after the window") {
  const int N = 16;
  const double theta = 400;
  const auto op = hippo::legt(N, theta);
  const auto d = hippo::bilinear(op, 1.0);
  const hippo::Matrix I = hippo::Matrix::Identity(N, N);
  CHECK_CLOSE("(I − A/2) Ā = I + A/2", common::compare(as_vector(hippo::Matrix((I - op.A / 2) * d.A_bar)),
                                                       as_vector(hippo::Matrix(I + op.A / 2)), {1e-13, 1e-12}));
  // An impulse has left the window θ samples later: from lag 1.5 θ on, the state it left
  // behind is small next to its size inside the window (about √(2n+1)/θ).
  hippo::Vector state = d.B_bar;
  double inside = 0, after = 0;
  for (int j = 0; j < 3 * theta; ++j) {
    const double size = theta * state.cwiseAbs().maxCoeff();
    if (j < theta) inside = std::max(inside, size);
    if (j >= 1.5 * theta) after = std::max(after, size);
    state = d.A_bar * state;
  }
  INFO("largest θ·|c| inside the window " << inside << ", from 1.5 θ on " << after);
  CHECK(inside > 1);
  CHECK(after < 0.02 * inside);
}

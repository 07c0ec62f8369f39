// Chapter 01's sections on derivatives through time: how much x_0 still moves h_t, how the
// Jacobian dh_t/dh_{-1} vanishes or explodes, and backpropagation through time, each checked
// against finite differences.
#include "bptt.hpp"
#include "reference.hpp"
#include "rnn.hpp"
#include "sections.hpp"

#include <fmt/format.h>

#include <cmath>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace ch01 {

using common::Figure;
using rnn::Activation;

void section_memory(Notebook& nb, const Options& o) {
  nb.section("Memory: how much does x_0 still move h_t?");
  nb.text(
      "For the linear RNN h_t = A h_{t-1} + B x_t, the answer is dh_t/dx_0 = A^t B, whose size\n"
      "falls like ρ(A)^t: the spectral radius sets how long the RNN remembers. A tanh step multiplies\n"
      "by diag(tanh'(a_t)) W instead, of norm at most ||W||_2 (|tanh'| ≤ 1). For a W that is not\n"
      "normal, such as this random one, ||W||_2 > ρ(W): the bound does not promise faster forgetting.");
  const int steps = 200;
  const auto s = rnn::random_sequences(1, steps, nb.options().seed + 1);
  Figure f{"memory_decay",
           "Influence of the first input, |dh_t / dx_0|, by spectral radius",
           "step t",
           "|dh_t / dx_0|",
           false,
           true,
           {},
           {"set yrange [1e-12:1e3]"}};
  f.markup = true;  // dh_t, dx_0: subscripts
  std::vector<std::vector<std::string>> rows;
  for (double radius : {0.5, 0.9, 0.99, 1.01}) {
    const auto w = rnn::random_weights(o.hidden, radius, nb.options().seed);
    const auto influence = rnn::input_influence(w, s, 0, Activation::identity);
    f.series.push_back({fmt::format("linear, ρ = {}", radius), range(steps), influence});
    int memory = steps;  // first step where the influence fell below 1e-3 of its start
    for (int t = 0; t < steps; ++t)
      if (influence[t] < 1e-3 * influence[0]) {
        memory = t;
        break;
      }
    rows.push_back({fmt::format("linear, ρ = {}", radius), fmt::format("{:.2e}", influence[10]),
                    fmt::format("{:.2e}", influence[50]), fmt::format("{:.2e}", influence[199]),
                    memory < steps ? std::to_string(memory) : fmt::format("> {}", steps)});
  }
  const auto w = rnn::random_weights(o.hidden, 0.9, nb.options().seed);
  nb.value("||W||_2 of the ρ = 0.9 matrix", fmt::format("{:.2f}", rnn::spectral_norm(w.W, o.hidden)));
  const auto tanh_influence = rnn::input_influence(w, s, 0, Activation::tanh);
  f.series.push_back({"tanh, ρ = 0.9", range(steps), tanh_influence, "lines lw 2 dt 2 lc rgb 'black'"});
  nb.table({"RNN", "t = 10", "t = 50", "t = 199", "steps to 1e-3"}, rows);
  nb.figure(f);

  for (auto [f_act, radius, t] : {std::tuple{Activation::identity, 0.99, 50}, std::tuple{Activation::tanh, 0.9, 20}}) {
    const auto wr = rnn::random_weights(o.hidden, radius, nb.options().seed);
    const auto chain = rnn::input_influence_vector(wr, s, 0, f_act, t);
    const auto fd = rnn::input_influence_finite_differences(wr, s, 0, f_act, t, 1e-6);
    nb.check(fmt::format("dh_{}/dx_0 by the chain rule = finite differences ({}, ρ = {})", t, rnn::name(f_act), radius),
             common::compare(chain, fd, {1e-10, 1e-6}));
  }
}

void section_gradients(Notebook& nb, const Options& o) {
  nb.section("Gradients through time: vanishing and exploding");
  nb.text(
      "Backpropagation multiplies one step Jacobian diag(f'(a_t)) W per step, so |dh_t/dh_{-1}|\n"
      "shrinks or grows geometrically: the gradient that reaches early steps vanishes, or explodes.");
  const int steps = 100;
  const auto s = rnn::random_sequences(1, steps, nb.options().seed + 2);
  std::mt19937_64 rng(nb.options().seed);
  std::normal_distribution<double> normal(0.0, 0.1);
  std::vector<double> h0(o.hidden);
  for (double& v : h0) v = normal(rng);

  Figure f{"gradient_norm",
           "Norm of the Jacobian dh_t / dh_{-1} over time",
           "step t",
           "||dh_t / dh_{-1}||_2",
           false,
           true,
           {},
           {"set yrange [1e-16:1e8]"}};
  f.markup = true;  // dh_{-1}, ||...||_2: subscripts
  std::vector<std::vector<std::string>> rows;
  auto add = [&](Activation act, double radius) {
    const auto w = rnn::random_weights(o.hidden, radius, nb.options().seed);
    const auto norms = rnn::jacobian_norms(w, s, 0, act, h0);
    const std::string label = fmt::format("{}, ρ = {}", rnn::name(act), radius);
    f.series.push_back({label, range(steps), norms});
    rows.push_back(
        {label, fmt::format("{:.2e}", norms[9]), fmt::format("{:.2e}", norms[49]), fmt::format("{:.2e}", norms[99])});
  };
  for (double radius : {0.5, 0.9, 1.5, 3.0}) add(Activation::tanh, radius);
  add(Activation::identity, 1.05);
  nb.table({"RNN", "t = 9", "t = 49", "t = 99"}, rows);
  nb.figure(f);

  const auto w = rnn::random_weights(o.hidden, 1.5, nb.options().seed);
  const auto chain = rnn::jacobian(w, s, 0, Activation::tanh, h0, 10);
  const auto fd = rnn::jacobian_finite_differences(w, s, 0, Activation::tanh, h0, 10, 1e-6);
  nb.check("dh_10/dh_{-1} by the chain rule = finite differences (tanh, ρ = 1.5)",
           common::compare(chain, fd, {1e-9, 1e-6}),
           [&](std::size_t i) { return fmt::format("row {}, column {}", i / o.hidden, i % o.hidden); });
}

void section_bptt(Notebook& nb, const Options& o) {
  nb.section("Backpropagation through time");
  nb.text(
      "The gradients of ℓ = Σ_t g_t y_t come from one sweep backwards over time (exercise 2),\n"
      "as sequential as the forward pass. Each is checked against central finite differences.");
  const int L = 40;
  const auto w = rnn::random_weights(o.hidden, 1.2, nb.options().seed);
  const auto s = rnn::random_sequences(1, 2 * L, nb.options().seed + 3);
  const std::vector<double> x(s.x.begin(), s.x.begin() + L), g(s.x.begin() + L, s.x.end());
  std::vector<double> h0(o.hidden);
  for (int j = 0; j < o.hidden; ++j) h0[j] = 0.1 * std::sin(j + 1.0);
  const auto grad = rnn::backprop_through_time(w, x, g, h0);

  constexpr double eps = 1e-6;
  auto finite_difference = [&](auto perturb) {
    rnn::Weights wp = w, wm = w;
    std::vector<double> hp = h0, hm = h0;
    perturb(wp, hp, +eps);
    perturb(wm, hm, -eps);
    return (rnn::weighted_output_sum(wp, x, g, hp) - rnn::weighted_output_sum(wm, x, g, hm)) / (2 * eps);
  };
  const int H = o.hidden;
  std::vector<double> dW(std::size_t(H) * H), du(H), dc(H), dh(H);
  for (std::size_t i = 0; i < dW.size(); ++i)
    dW[i] = finite_difference([i](rnn::Weights& v, std::vector<double>&, double e) { v.W[i] += e; });
  for (int j = 0; j < H; ++j) {
    du[j] = finite_difference([j](rnn::Weights& v, std::vector<double>&, double e) { v.u[j] += e; });
    dc[j] = finite_difference([j](rnn::Weights& v, std::vector<double>&, double e) { v.c[j] += e; });
    dh[j] = finite_difference([j](rnn::Weights&, std::vector<double>& h, double e) { h[j] += e; });
  }
  const Tolerance tol{1e-7, 1e-5};
  nb.check("dℓ/dW = finite differences", common::compare(grad.dW, dW, tol));
  nb.check("dℓ/du = finite differences", common::compare(grad.du, du, tol));
  nb.check("dℓ/dc = finite differences", common::compare(grad.dc, dc, tol));
  nb.check("dℓ/dh_{-1} = finite differences", common::compare(grad.dh_initial, dh, tol));
}

}  // namespace ch01

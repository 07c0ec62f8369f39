// Chapter 01's sections on the forward recurrence: the tanh RNN one step after another, and the
// linear RNN unrolled into a convolution with the kernel K_k = C A^k B.
#include "reference.hpp"
#include "rnn.hpp"
#include "sections.hpp"
#include "unrolled.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace ch01 {

using common::Figure;
using rnn::Activation;

void section_tanh_rnn(Notebook& nb, const Options& o) {
  nb.section("The tanh RNN, one step after another (fp64 reference on the CPU)");
  nb.text(
      "h_t = tanh(W h_{t-1} + u x_t),  y_t = c · h_t,  h_{-1} = 0, for many independent sequences.\n"
      "At every step the states of the whole batch form an H × batch matrix, so one step is one\n"
      "matrix product -- but step t cannot start before step t-1 has finished.");
  const auto w = rnn::random_weights(o.hidden, o.radius, nb.options().seed);
  const auto s = rnn::random_sequences(o.batch, o.length, nb.options().seed);
  nb.value("hidden units H", std::to_string(o.hidden));
  nb.value("sequences × steps", fmt::format("{} × {}", o.batch, o.length));
  nb.value("spectral radius of W", fmt::format("{:.4f} (asked for {})", rnn::spectral_radius(w.W, o.hidden), o.radius));

  const auto reference = rnn::run_cpu<double>(w, s, Activation::tanh);
  const auto single = rnn::run_cpu<float>(w, s, Activation::tanh);
  const std::vector<float> y32(single.y.begin(), single.y.end());
  nb.check("the same loop in fp32 vs fp64, every y_t", common::compare(y32, reference.y, kFp32Tolerance),
           [&](std::size_t i) { return time_major_index(i, o.batch); });

  // One sequence driven by a pulse and then a sine, to watch the state respond and settle.
  rnn::Sequences one{1, 120, std::vector<double>(120, 0.0)};
  for (int t = 0; t < 120; ++t) one.x[t] = (t >= 10 && t < 15 ? 1.0 : 0.0) + (t >= 60 ? std::sin(t * 0.3) : 0.0);
  const auto h = rnn::trajectory(w, one, 0, Activation::tanh);
  Figure f{"trajectories",
           "Hidden state of a tanh RNN driven by a pulse (t = 10..14), then a sine (t ≥ 60)",
           "step t",
           "value",
           false,
           false,
           {},
           {"set key outside right top"}};
  f.series.push_back({"input x_t", range(120), one.x, "lines lw 3 lc rgb '#bbbbbb'", true});  // x_t: a subscript
  for (int j = 0; j < 4; ++j) {
    std::vector<double> unit;
    for (int t = 0; t < 120; ++t) unit.push_back(h[t + 1][j]);
    f.series.push_back({fmt::format("h_t[{}]", j), range(120), unit, "lines lw 2", true});
  }
  nb.figure(f);
}

void section_linear_is_ssm(Notebook& nb, const Options& o) {
  nb.section("The linear RNN is a state space model, and a convolution");
  nb.text(
      "With f = identity the recurrence unrolls: y_t = Σ_k K_k x_{t-k} with K_k = C A^k B.\n"
      "The kernel K (exercise 1) turns the sequential loop into one convolution: chapter 03's K̄.");
  const auto w = rnn::random_weights(o.hidden, o.radius, nb.options().seed);
  const int sequences = std::min(o.batch, 8);
  const auto s = rnn::random_sequences(sequences, o.length, nb.options().seed);
  const auto recurrence = rnn::run_cpu<double>(w, s, Activation::identity);
  const auto K = rnn::linear_rnn_kernel(w, o.length);
  std::vector<double> convolution(recurrence.y.size());
  for (int b = 0; b < sequences; ++b) {
    std::vector<double> x(o.length);
    for (int t = 0; t < o.length; ++t) x[t] = s.x[rnn::at(t, b, sequences)];
    const auto y = rnn::causal_convolution(K, x);
    for (int t = 0; t < o.length; ++t) convolution[rnn::at(t, b, sequences)] = y[t];
  }
  const std::size_t shown = std::min<std::size_t>(K.size(), 5);  // --length may be below 5
  nb.value(fmt::format("K_0 .. K_{}", shown - 1), fmt::format("{:.5f}", fmt::join(K.begin(), K.begin() + shown, ", ")));
  nb.check(fmt::format("convolution with K = the recurrence ({} sequences × {} steps, fp64)", sequences, o.length),
           common::compare(convolution, recurrence.y, {1e-12, 1e-9}),
           [&](std::size_t i) { return time_major_index(i, sequences); });

  Figure f{"ssm_kernel",     "The linear RNN's convolution kernel K_k = C A^k B", "lag k", "K_k", false, false, {},
           {"set xzeroaxis"}};
  f.markup = true;  // K_k, A^k
  for (double radius : {0.5, 0.9, 0.99}) {
    const auto wr = rnn::random_weights(o.hidden, radius, nb.options().seed);
    f.series.push_back({fmt::format("ρ = {}", radius), range(80), rnn::linear_rnn_kernel(wr, 80)});
  }
  nb.figure(f);
}

}  // namespace ch01

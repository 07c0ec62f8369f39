// ch01_rnn -- Chapter 01: the RNN recurrence.
//
// Why an RNN is sequential, and why a *linear* RNN is a state space model. Run with --help
// for the options; the chapter's text is README.md beside this file.
#include "benchmark_results.hpp"
#include "bptt.hpp"
#include "chapter_main.hpp"
#include "checked_timing.hpp"
#include "gpu.hpp"
#include "gpu_rnn.hpp"
#include "memory.hpp"
#include "options.hpp"
#include "reference.hpp"
#include "results_csv.hpp"
#include "rnn_kernels.hpp"
#include "timing.hpp"
#include "unrolled.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <numbers>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace {

using common::Figure;
using common::Notebook;
using common::Tolerance;
using rnn::Activation;

struct Options {
  int batch = 1000;
  int length = 257;
  int hidden = 32;
  double radius = 0.9;
};

// fp32 against fp64 over a few hundred steps of a contracting RNN: the rounding of each
// step is damped by the next, so errors stay near fp32's resolution (~1e-6 here); an
// indexing or synchronisation bug shows up as errors of order 0.1.
constexpr Tolerance kFp32Tolerance{2e-5, 1e-4};

std::vector<double> range(int n, int first = 0) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i) v[i] = first + i;
  return v;
}

std::string time_major_index(std::size_t i, int batch) { return fmt::format("t={}, b={}", i / batch, i % batch); }

// The first `count` sequences of a time-major L × batch array.
std::vector<float> first_sequences(const std::vector<float>& y, int batch, int length, int count) {
  std::vector<float> out(std::size_t(count) * length);
  for (int t = 0; t < length; ++t)
    for (int b = 0; b < count; ++b) out[rnn::at(t, b, count)] = y[rnn::at(t, b, batch)];
  return out;
}

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

// Runs one kernel on several problems and checks every y_t and every final state against
// fp64, as one comparison (one check line) whose report names the problem of the worst
// element.
void check_kernel(Notebook& nb, rnn::Kernel kernel, Activation act, const rnn::Weights& w,
                  const std::vector<std::pair<int, int>>& sizes, std::uint64_t seed) {
  std::vector<float> got;
  std::vector<double> expected;
  std::vector<std::pair<std::size_t, std::string>> segments;  // (first index, what it holds)
  std::string size_list;
  for (auto [batch, length] : sizes) {
    const auto s = rnn::random_sequences(batch, length, seed);
    const auto reference = rnn::run_cpu<double>(w, s, act);
    rnn::GpuRnn gpu(w, s);
    gpu.poison_outputs();
    gpu.run(kernel, act);
    for (auto [values, reference_values, name] :
         {std::tuple{gpu.y(), reference.y, "y"}, std::tuple{gpu.h_final(), reference.h_final, "h_L"}}) {
      segments.push_back({got.size(), fmt::format("{} of the {} × {} problem", name, batch, length)});
      got.insert(got.end(), values.begin(), values.end());
      expected.insert(expected.end(), reference_values.begin(), reference_values.end());
    }
    size_list += fmt::format("{}{}×{}", size_list.empty() ? "" : ", ", batch, length);
  }
  nb.check(fmt::format("kernel {} ({}) on {}, every y_t and h_L", int(kernel), rnn::name(act), size_list),
           common::compare(got, expected, kFp32Tolerance), [&](std::size_t i) {
             auto it = std::prev(std::upper_bound(segments.begin(), segments.end(), std::pair{i, std::string()},
                                                  [](const auto& x, const auto& y) { return x.first < y.first; }));
             return fmt::format("element {} of {}", i - it->first, it->second);
           });
}

void section_gpu(Notebook& nb, const Options& o) {
  nb.section("The RNN on the GPU: three versions, each checked against fp64");
  for (const auto& k : rnn::kKernels)
    nb.value(fmt::format("kernel {}", int(k.id)), fmt::format("{}: {}", k.name, k.idea));
  if (!nb.gpu()) return nb.gpu_skip("every GPU kernel and its checks");
  // Awkward sizes first: one sequence of one step, sizes that are not multiples of a warp
  // or a block, then the size given on the command line.
  const std::vector<std::pair<int, int>> sizes{{1, 1}, {31, 7}, {33, 40}, {o.batch, o.length}};
  const auto w = rnn::random_weights(o.hidden, o.radius, nb.options().seed);
  for (const auto& info : rnn::kKernels) {
    if (!common::kernel_selected(nb.options(), int(info.id))) continue;
    for (Activation act : {Activation::tanh, Activation::identity})
      check_kernel(nb, info.id, act, w, sizes, nb.options().seed);
  }
}

void section_benchmark(Notebook& nb, const Options& o) {
  nb.section("Time against sequence length: the O(L) chain");
  const bool bench = nb.options().bench;
  const int batch = bench ? 16384 : 4096;
  const std::vector<int> lengths =
      bench ? std::vector<int>{16, 64, 256, 1024, 4096, 16384} : std::vector<int>{16, 64, 256, 1024};
  const int cpu_max_length = bench ? 1024 : 256;  // beyond this one core takes seconds per run
  constexpr int checked_sequences = 64;           // re-checked against fp64 after timing
  nb.text(fmt::format(
      "{} sequences, H = {}, tanh. CPU: the batched fp32 loop on one core (Eigen), up to L = {}\n"
      "(\"-\" past it: one core takes seconds a run there; --bench goes further). GPU: each kernel is\n"
      "checked on the first {} sequences before and after it is timed; \"-\" for a kernel --kernel left out.",
      batch, o.hidden, cpu_max_length, checked_sequences));
  const bool gpu = nb.gpu();
  if (!gpu) nb.gpu_skip("the GPU timings (the CPU column still runs)");
  const auto w = rnn::random_weights(o.hidden, o.radius, nb.options().seed);

  double copy_gbps = 0;
  std::unique_ptr<common::ResultsCsv> csv;
  if (gpu) {
    copy_gbps = common::measure_copy_bandwidth(std::size_t(512) << 20);
    nb.value("device-to-device copy", fmt::format("{:.0f} GB/s (read + write)", copy_gbps));
  }
  csv = std::make_unique<common::ResultsCsv>(
      nb.out_dir() + "/bench.csv", gpu ? common::gpu_status().device.name : "cpu only", nb.date(),
      std::vector<std::string>{"implementation", "batch", "hidden", "length", "median_ms", "min_ms", "max_ms", "bytes",
                               "gb_per_s", "pct_of_copy", "ns_per_step"});

  common::BenchmarkResults results(*csv, common::BenchmarkResults::Shown::median_ms, 3);
  std::optional<common::CheckedTiming> timing;
  if (gpu) timing.emplace(nb, common::TimingOptions{2, bench ? 10 : 5, true});
  std::vector<std::vector<std::string>> rows;
  for (int length : lengths) {
    const auto s = rnn::random_sequences(batch, length, nb.options().seed + length);
    const double bytes = 8.0 * batch * length;  // x read + y written, fp32
    std::vector<std::string> row{std::to_string(length)};
    const common::BenchmarkPoint at{
        double(length), {std::to_string(batch), std::to_string(o.hidden), std::to_string(length)}, bytes, copy_gbps};
    const auto ns_per_step = [&](const common::TimingStats& t) {
      return fmt::format("{:.1f}", 1e6 * t.median_ms / length);
    };
    if (length <= cpu_max_length) {
      const auto t = common::time_cpu([&] { rnn::run_cpu<float>(w, s, Activation::tanh); }, 1, 3);
      row.push_back(results.record("CPU fp32 (1 core)", at, t, {ns_per_step(t)}));
    } else {
      row.push_back("-");
    }
    if (!gpu) {
      rows.push_back(row);
      continue;
    }
    const auto reference = rnn::run_reference_prefix(w, s, Activation::tanh, checked_sequences);
    rnn::GpuRnn problem(w, s);
    common::TimingStats best{1e300};
    for (const auto& info : rnn::kKernels) {
      if (!common::kernel_selected(nb.options(), int(info.id))) {
        row.push_back("-");
        continue;
      }
      const auto t = timing->time(
          fmt::format("kernel {} at L = {}", int(info.id), length), [&] { problem.poison_outputs(); },
          [&] { problem.run(info.id, Activation::tanh); },
          [&] {
            const auto y = first_sequences(problem.y(), batch, length, checked_sequences);
            return common::failure(common::compare(y, reference.y, kFp32Tolerance));
          });
      if (!t) {
        row.push_back("wrong");
        continue;
      }
      row.push_back(results.record(fmt::format("GPU kernel {}", int(info.id)), at, *t, {ns_per_step(*t)}));
      if (t->median_ms < best.median_ms) best = *t;
    }
    const double gbps = common::gigabytes_per_second(bytes, best.median_ms);
    row.push_back(fmt::format("{:.0f}", 1e6 * best.median_ms / length));
    row.push_back(fmt::format("{:.1f}", gbps));
    row.push_back(fmt::format("{:.2f}%", 100 * gbps / copy_gbps));
    rows.push_back(row);
  }
  std::vector<std::string> header{"L", "CPU ms"};
  if (gpu) {
    for (const auto& info : rnn::kKernels) header.push_back(fmt::format("k{} ms", int(info.id)));
    header.insert(header.end(), {"best ns/step", "best GB/s", "% of copy"});
  }
  nb.table(header, rows);
  nb.value("results", csv->path());
  if (gpu) {
    timing->report("the timed kernels match fp64 before and after timing",
                   fmt::format("first {} sequences of each, tol atol {:.0e} + rtol {:.0e}·|ref|", checked_sequences,
                               kFp32Tolerance.atol, kFp32Tolerance.rtol));
  }

  Figure f{"bench_time",
           fmt::format("Time for {} sequences against their length (H = {}, tanh)", batch, o.hidden),
           "sequence length L",
           "median time (ms)",
           true,
           true,
           {},
           {"set key inside right bottom"}};
  f.series = results.series();
  nb.figure(f, false);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  return common::run_chapter(
      {"ch01_rnn", "Chapter 01 · The RNN recurrence", rnn::kKernelCount}, argc, argv,
      [&](CLI::App& app) {
        app.add_option("--batch", o.batch, "Number of sequences")
            ->check(common::integer_in(1, 1 << 24))
            ->capture_default_str();
        app.add_option("--length", o.length, "Steps per sequence")
            ->check(common::integer_in(1, 1 << 24))
            ->capture_default_str();
        app.add_option("--hidden", o.hidden, "Hidden units H (16 or 32)")
            ->check(CLI::IsMember({16, 32}))
            ->capture_default_str();
        app.add_option("--radius", o.radius, "Spectral radius of W for the checks")
            ->check(common::real_in(0.01, 1.0))
            ->capture_default_str();
      },
      [&](Notebook& nb) {
        // Before any work: the fp64 checks hold about 36 bytes per sequence-step (inputs, the
        // fp64 and fp32 outputs, the GPU's results) and the states of every sequence.
        common::require_host_memory(double(o.batch) * (36.0 * o.length + 32.0 * o.hidden), "--batch × --length");
        if (nb.gpu())
          common::require_device_memory(rnn::GpuRnn::device_bytes(o.hidden, o.batch, o.length), "--batch × --length");
        section_tanh_rnn(nb, o);
        section_memory(nb, o);
        section_gradients(nb, o);
        section_linear_is_ssm(nb, o);
        section_bptt(nb, o);
        section_gpu(nb, o);
        section_benchmark(nb, o);
      });
}

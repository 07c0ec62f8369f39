// Chapter 08's packed sequences: one call over sequences of different lengths laid end to end
// (ForwardParams::cu_seqlens), checked against the fp64 reference, then timed against one sequence
// of the same total length and against a batch of equal sequences, the official kernel having no
// packed form to compare with.
#include "sections.hpp"

#include "check_group.hpp"
#include "checked_timing.hpp"
#include "cuda_check.hpp"
#include "device_problem.hpp"
#include "reference.hpp"
#include "selective_scan.hpp"
#include "tolerances.hpp"
#include "verdict.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace ch08 {
namespace {

using common::Notebook;

// Offsets of sequences of the given lengths laid end to end.
std::vector<std::int64_t> offsets_of(const std::vector<std::int64_t>& lengths) {
  std::vector<std::int64_t> offsets{0};
  for (std::int64_t length : lengths) offsets.push_back(offsets.back() + length);
  return offsets;
}

// Lengths that add up to `total` in `count` sequences, drawn uneven (each at least one step), as a
// batch of real documents is.
std::vector<std::int64_t> uneven_lengths(std::int64_t total, std::int64_t count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> weight(0.2, 1.8);
  std::vector<double> weights(static_cast<std::size_t>(count));
  double sum = 0;
  for (double& w : weights) sum += w = weight(rng);
  std::vector<std::int64_t> lengths;
  std::int64_t given = 0;
  for (std::int64_t q = 0; q < count; ++q) {
    const std::int64_t left = total - given - (count - 1 - q);  // every later sequence keeps a step
    const std::int64_t length =
        q + 1 == count ? total - given
                       : std::clamp<std::int64_t>(std::llround(total * weights[std::size_t(q)] / sum), 1, left);
    lengths.push_back(length);
    given += length;
  }
  return lengths;
}

// Every output and gradient of one packed call against the fp64 reference, which runs each
// sequence from its own initial state to its own last state, the last states' gradients given.
void check_packed(Notebook& nb, const Options& o) {
  const std::vector<std::int64_t> lengths{1, 7, 300, 2100};
  Problem shape;
  shape.batch = 1, shape.dim = 8, shape.dstate = 16, shape.groups = 2;
  shape.cu_seqlens = offsets_of(lengths);
  shape.seqlen = shape.cu_seqlens.back();
  shape.has_D = shape.has_z = shape.has_delta_bias = shape.delta_softplus = shape.has_initial_state = true;
  ch08::CheckGroup group;
  std::uint64_t seed = nb.options().seed + 900;
  for (DataType type : selected_dtypes(o)) {
    const Problem p = ch08::as_gpu_sees(ch08::make_official_test_problem(shape, unsigned(++seed)), type);
    const std::vector<double> dout = ch08::round_to(normal_values(std::size_t(p.sequence_elements()), seed), type);
    std::vector<Complex> dlast;
    for (double x : normal_values(std::size_t(p.sequences() * p.dim * p.dstate), seed + 1))
      dlast.emplace_back(double(float(x)), 0.0);
    const ch08::ForwardResult expected = ch08::reference_forward(p);
    const ch08::Gradients expected_grad = ch08::reference_backward(p, dout, dlast);
    ch08::DeviceProblem device(p, type, Kernel::automatic);
    device.set_dout(dout);
    device.set_dlast_state(dlast);
    device.poison_outputs();
    device.forward();
    device.backward();
    CUDA_CHECK(cudaDeviceSynchronize());
    Verdict v;
    for (const ch08::TensorVerdict& t : ch08::judge_run(p, ch08::official_tolerances(type, p), device.forward_result(),
                                                        expected, device.gradients(), expected_grad))
      v.add(t);
    const std::string plan = selective_scan::plan_of(device.backward_params()).summary();
    group.add({fmt::format("{}, packed lengths 1, 7, 300, 2100 ({})", dtype_name(type), plan), v.ok(), v.failure(),
               v.tensors(), v.worst(), v.worst_name()});
  }
  group.report(nb, "one packed call of 4 sequences, (1, 8, 2408, 16), 2 groups, every option", "types",
               [](int count, int tensors) {
                 return fmt::format("{} input types, {} tensors within the official tolerances", count, tensors);
               });
}

// What one of the timed layouts is: its name, its batch and its sequences' lengths (empty: each
// batch row one sequence), and the kernel asked for.
struct Layout {
  std::string name;
  std::int64_t batch;
  std::vector<std::int64_t> lengths;
  Kernel kernel;
};

}  // namespace

void section_packed(Notebook& nb, const Options& o) {
  nb.section("Packed sequences: one call over sequences of different lengths");
  const bool bench = nb.options().bench;
  const std::int64_t dim = bench ? 1536 : 256, total = bench ? 16384 : 2048;
  nb.text(
      fmt::format("Sequences of different lengths laid end to end in batch 1 (cu_seqlens), each from its own initial\n"
                  "state to its own last state: versions 2 and 5 take such a call both ways.\n"
                  "Checked against the fp64 reference, then timed: one sequence of {} steps, and the same steps as 8\n"
                  "and as 64 packed sequences of uneven lengths, against a batch of 64 equal sequences (what a caller\n"
                  "pads uneven ones to), bf16, (dim {}, dstate 16), B and C variable, D, z, delta_bias, softplus on.",
                  total, dim));
  if (!nb.gpu()) return nb.gpu_skip("the packed calls");
  check_packed(nb, o);

  const DataType type = DataType::bfloat16;
  const std::vector<Layout> layouts = {
      {"one sequence, automatic", 1, {}, Kernel::automatic},
      {"one sequence, version 2", 1, {}, Kernel::blocked},
      {"8 packed sequences", 1, uneven_lengths(total, 8, nb.options().seed + 1), Kernel::automatic},
      {"64 packed sequences", 1, uneven_lengths(total, 64, nb.options().seed + 2), Kernel::automatic},
      {"a batch of 64 equal sequences", 64, {}, Kernel::automatic},
  };
  common::CheckedTiming timing(nb, {2, bench ? 10 : 5, true});
  std::vector<std::vector<std::string>> rows;
  double one_sequence_ms[2] = {0, 0};
  for (const Layout& layout : layouts) {
    const Config c = make_config(type, layout.batch, dim, total / layout.batch, 16);
    Problem p = benchmark_problem(c, nb.options().seed + 50);
    if (!layout.lengths.empty()) p.cu_seqlens = offsets_of(layout.lengths);
    ch08::DeviceProblem device(p, type, layout.kernel);
    device.set_dout(normal_values(std::size_t(p.sequence_elements()), nb.options().seed + 51));
    const std::string plan = selective_scan::plan_of(device.backward_params()).summary();
    // The values are checked on the packed call above; here every output must come out finite.
    const auto finite = [&] {
      const ch08::ForwardResult r = device.forward_result();
      return std::all_of(r.out.begin(), r.out.end(), [](double x) { return std::isfinite(x); })
                 ? std::string()
                 : std::string("a non-finite output");
    };
    const auto poison = [&] { device.poison_outputs(); };
    const std::string what = fmt::format("{}, {}", layout.name, c.label);
    const std::optional<common::TimingStats> forward = timing.time(
        what + ", forward", poison, [&] { device.forward(); }, finite);
    const std::optional<common::TimingStats> both = timing.time(
        what + ", forward + backward", poison,
        [&] {
          device.forward();
          device.backward();
        },
        finite);
    const double fwd = forward ? forward->median_ms : 0, fwd_bwd = both ? both->median_ms : 0;
    if (rows.empty()) one_sequence_ms[0] = fwd, one_sequence_ms[1] = fwd_bwd;
    const auto versus = [](double ms, double one) { return ms > 0 && one > 0 ? fmt::format("{:.2f}", ms / one) : "-"; };
    const auto [shortest, longest] = std::minmax_element(layout.lengths.begin(), layout.lengths.end());
    rows.push_back({layout.name, layout.lengths.empty() ? "-" : fmt::format("{}-{}", *shortest, *longest), plan,
                    fmt::format("{:.3f}", fwd), versus(fwd, one_sequence_ms[0]), fmt::format("{:.3f}", fwd_bwd),
                    versus(fwd_bwd, one_sequence_ms[1])});
  }
  nb.table({"layout", "lengths", "plan", "fwd ms", "÷ one seq", "fwd+bwd ms", "÷ one seq"}, rows);
  timing.report("every timed packed and unpacked call finite, its outputs poisoned before each run");
}

}  // namespace ch08

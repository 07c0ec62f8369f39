// Chapter 08's benchmark: every version timed on the official kernel's shapes against the byte
// and exp floors and the official kernel's times, each timed run checked on a slice against fp64.
#include "sections.hpp"

#include "byte_model.hpp"
#include "checked_timing.hpp"
#include "device_problem.hpp"
#include "gpu.hpp"
#include "memory.hpp"
#include "official_times.hpp"
#include "reference.hpp"
#include "results_csv.hpp"
#include "selective_scan.hpp"
#include "timing.hpp"
#include "tolerances.hpp"
#include "verdict.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace ch08 {
namespace {

using common::Figure;
using common::Notebook;
using common::Series;

// The official kernel's times for a configuration: official-bench's, run in the same device call
// (--official); none where it was not given or did not time this configuration.
struct OfficialTimes {
  double forward_ms = 0, forward_backward_ms = 0;
  std::string source;  // empty: no time for this configuration
};
OfficialTimes official_times(const Config& c, const std::map<std::string, ch08::OfficialTime>& measured) {
  if (!c.variable_BC) return {};  // official-bench times variable B and C alone
  const auto found = measured.find(ch08::official_spec(dtype_name(c.type), c.batch, c.dim, c.seqlen, c.dstate, 1));
  if (found == measured.end()) return {};
  return {found->second.forward_ms, found->second.forward_backward_ms, "official-bench, this run"};
}

std::vector<Config> small_configs(const Options& o) {
  std::vector<Config> configs;
  for (DataType t : selected_dtypes(o)) configs.push_back(make_config(t, o.batch, o.dim, o.seqlen, int(o.dstate)));
  return configs;
}

// ---- [8] ---------------------------------------------------------------------------------------
// The fp64 reference of a whole benchmark problem takes minutes, so the timed runs are checked
// on a slice: dout is zero but on a few channels, the reference runs on those channels alone,
// and every gradient of the other channels must come out exactly zero.
class SliceCheck {
 public:
  SliceCheck(const Problem& full, DataType type, std::vector<std::int64_t> channels, std::uint64_t seed)
      : full_(full), channels_(std::move(channels)) {
    for (std::size_t j = 0; j < channels_.size(); ++j) slot_[channels_[j]] = j;
    sub_ = ch08::as_gpu_sees(sub_problem(), type);
    const std::int64_t L = full_.seqlen;
    std::vector<double> sub_dout = ch08::round_to(normal_values(std::size_t(sub_.sequence_elements()), seed), type);
    dout_.assign(std::size_t(full_.sequence_elements()), 0.0);
    for (std::int64_t b = 0; b < full_.batch; ++b)
      for (std::size_t j = 0; j < channels_.size(); ++j)
        std::copy_n(&sub_dout[std::size_t((b * sub_.dim + std::int64_t(j)) * L)], L,
                    &dout_[std::size_t((b * full_.dim + channels_[j]) * L)]);
    expected_ = ch08::reference_forward(sub_);
    expected_grad_ = ch08::reference_backward(sub_, sub_dout);
    tol_ = ch08::official_tolerances(type, sub_);
  }

  const std::vector<double>& dout() const { return dout_; }
  static std::string describe() {
    return "channels 0, dim/2 and dim − 1 of every batch against fp64; dout zero elsewhere, so every other gradient "
           "must be 0";
  }

  std::string forward_failure(const ch08::DeviceProblem& device) const {
    Verdict v;
    add_forward(v, device.forward_result());
    return v.failure();
  }
  std::string forward_backward_failure(const ch08::DeviceProblem& device) const {
    Verdict v;
    add_forward(v, device.forward_result());
    const ch08::Gradients g = device.gradients();
    add_rows(v, "du", g.du, expected_grad_.du, tol_.du, full_.batch, full_.seqlen);
    add_rows(v, "ddelta", g.ddelta, expected_grad_.ddelta, tol_.ddelta, full_.batch, full_.seqlen);
    if (full_.has_z) add_rows(v, "dz", g.dz, expected_grad_.dz, tol_.dz, full_.batch, full_.seqlen);
    add_rows(v, "dA", flatten(g.dA, full_.complex), flatten(expected_grad_.dA, full_.complex), tol_.dA, 1,
             full_.dstate * parts(), ch08::dA_rounding(sub_, expected_grad_));
    if (full_.has_D) add_rows(v, "dD", g.dD, expected_grad_.dD, tol_.dD, 1, 1);
    if (full_.has_delta_bias)
      add_rows(v, "ddelta_bias", g.ddelta_bias, expected_grad_.ddelta_bias, tol_.ddelta_bias, 1, 1);
    add_projection(v, "dB", g.dB, expected_grad_.dB, tol_.dB, full_.variable_B);
    add_projection(v, "dC", g.dC, expected_grad_.dC, tol_.dC, full_.variable_C);
    return v.failure();
  }

 private:
  std::int64_t parts() const { return full_.complex ? 2 : 1; }
  std::int64_t group_of(std::int64_t d) const { return d / (full_.dim / full_.groups); }

  // The chosen channels as a problem of their own; with several groups each channel becomes a
  // group of one, holding its group's B and C.
  Problem sub_problem() const {
    Problem s = full_;
    const std::int64_t k = std::int64_t(channels_.size()), L = full_.seqlen, N = full_.dstate;
    s.dim = k;
    s.groups = full_.groups == 1 ? 1 : int(k);
    const auto rows = [&](const auto& from, std::int64_t batches, std::int64_t length) {
      std::remove_cvref_t<decltype(from)> out;
      for (std::int64_t b = 0; b < batches; ++b)
        for (std::int64_t d : channels_)
          out.insert(out.end(), from.begin() + (b * full_.dim + d) * length,
                     from.begin() + (b * full_.dim + d + 1) * length);
      return out;
    };
    s.u = rows(full_.u, full_.batch, L);
    s.delta = rows(full_.delta, full_.batch, L);
    if (full_.has_z) s.z = rows(full_.z, full_.batch, L);
    s.A = rows(full_.A, 1, N);
    if (full_.has_D) s.D = rows(full_.D, 1, 1);
    if (full_.has_delta_bias) s.delta_bias = rows(full_.delta_bias, 1, 1);
    if (full_.has_initial_state) s.initial_state = rows(full_.initial_state, full_.batch, N);
    const auto projection = [&](const std::vector<Complex>& from, bool variable) {
      if (!variable) return rows(from, 1, N);
      if (full_.groups == 1) return from;
      std::vector<Complex> out;
      for (std::int64_t b = 0; b < full_.batch; ++b)
        for (std::int64_t d : channels_) {
          const auto begin = from.begin() + (b * full_.groups + group_of(d)) * N * L;
          out.insert(out.end(), begin, begin + N * L);
        }
      return out;
    };
    s.B = projection(full_.B, full_.variable_B);
    s.C = projection(full_.C, full_.variable_C);
    return s;
  }

  // out and out_z on the chosen channels against fp64, and written (finite) everywhere.
  void add_forward(Verdict& v, const ch08::ForwardResult& got) const {
    const auto sequence = [&](const char* name, const std::vector<double>& all, const std::vector<double>& expected) {
      std::vector<double> chosen;
      std::size_t non_finite = 0;
      for (std::int64_t b = 0; b < full_.batch; ++b)
        for (std::int64_t d = 0; d < full_.dim; ++d) {
          const auto row = all.begin() + (b * full_.dim + d) * full_.seqlen;
          if (slot_.count(d)) chosen.insert(chosen.end(), row, row + full_.seqlen);
          non_finite += std::size_t(std::count_if(row, row + full_.seqlen, [](double x) { return !std::isfinite(x); }));
        }
      v.add(name, chosen, expected, tol_.out);
      v.require(std::string(name) + " written", non_finite == 0, fmt::format("{} elements NaN or Inf", non_finite));
    };
    sequence("out", got.out, expected_.out);
    if (full_.has_z) sequence("out_z", got.out_z, expected_.out_z);
    std::vector<double> state;
    const std::vector<double> all = flatten(got.last_state, full_.complex);
    const std::int64_t row = full_.dstate * parts();
    for (std::int64_t b = 0; b < full_.batch; ++b)
      for (std::int64_t d : channels_)
        state.insert(state.end(), all.begin() + (b * full_.dim + d) * row, all.begin() + (b * full_.dim + d + 1) * row);
    v.add("last_state", state, flatten(expected_.last_state, full_.complex), tol_.last_state);
  }

  // A tensor of `batches` × dim rows of `length`: the chosen rows against fp64, the others 0.
  // rounding: dA's bound on top of its tolerance, for the chosen rows (Verdict::add).
  void add_rows(Verdict& v, const std::string& name, const std::vector<double>& all,
                const std::vector<double>& expected, Tolerance tol, std::int64_t batches, std::int64_t length,
                const std::vector<double>& rounding = {}) const {
    std::vector<double> chosen;
    std::size_t nonzero = 0;
    for (std::int64_t b = 0; b < batches; ++b)
      for (std::int64_t d = 0; d < full_.dim; ++d) {
        const auto row = all.begin() + (b * full_.dim + d) * length;
        if (slot_.count(d))
          chosen.insert(chosen.end(), row, row + length);
        else
          nonzero += std::size_t(std::count_if(row, row + length, [](double x) { return x != 0.0; }));
      }
    v.add(name, chosen, expected, tol, rounding);
    v.require(name + " elsewhere", nonzero == 0, fmt::format("{} elements not 0 where dout is 0", nonzero));
  }

  // dB or dC: constant ones by channel rows; variable ones are sums over the channels of a group.
  void add_projection(Verdict& v, const std::string& name, const std::vector<Complex>& got,
                      const std::vector<Complex>& sub_grad, Tolerance tol, bool variable) const {
    if (!variable)
      return add_rows(v, name, flatten(got, full_.complex), flatten(sub_grad, full_.complex), tol, 1,
                      full_.dstate * parts());
    if (full_.groups == 1) return v.add(name, flatten(got, full_.complex), flatten(sub_grad, full_.complex), tol);
    const std::int64_t block = full_.dstate * full_.seqlen;
    std::vector<Complex> expected(got.size());
    for (std::int64_t b = 0; b < full_.batch; ++b)
      for (std::size_t j = 0; j < channels_.size(); ++j)
        for (std::int64_t i = 0; i < block; ++i)
          expected[std::size_t((b * full_.groups + group_of(channels_[j])) * block + i)] +=
              sub_grad[std::size_t((b * std::int64_t(channels_.size()) + std::int64_t(j)) * block + i)];
    v.add(name, flatten(got, full_.complex), flatten(expected, full_.complex), tol);
  }

  const Problem& full_;
  std::vector<std::int64_t> channels_;
  std::map<std::int64_t, std::size_t> slot_;
  Problem sub_;
  std::vector<double> dout_;
  ch08::ForwardResult expected_;
  ch08::Gradients expected_grad_;
  ch08::OfficialTolerances tol_;
};

std::vector<std::int64_t> slice_channels(std::int64_t dim) {
  const std::set<std::int64_t> unique{0, dim / 2, dim - 1};
  return {unique.begin(), unique.end()};
}

struct Timed {
  std::optional<common::TimingStats> forward, forward_backward;
};

std::string ratio(double numerator, double denominator) {
  return numerator > 0 && denominator > 0 ? fmt::format("{:.2f}", numerator / denominator) : "-";
}

}  // namespace

void require_benchmark_fits(const Options& o) {
  constexpr const char* options = "--batch × --dim × --seqlen × --dstate";
  const double sequence = double(o.batch) * double(o.dim) * double(o.seqlen);
  const double projection = double(o.batch) * double(o.dstate) * double(o.seqlen);
  common::require_host_memory(88 * sequence + 192 * projection, options);
  int input_bytes = 0;
  for (DataType t : selected_dtypes(o)) input_bytes = std::max(input_bytes, dtype_bytes(t));
  common::require_device_memory(std::size_t(9 * sequence * input_bytes + projection * (2 * input_bytes + 8)), options);
}

void section_benchmark(Notebook& nb, const Options& o) {
  nb.section("Benchmark: every version on the official kernel's shapes");
  const bool bench = nb.options().bench;
  const std::vector<Config> configs = bench ? bench_configs() : small_configs(o);
  nb.text(bench
              ? "The six configurations of the official kernel's benchmarks, then dstate 64, seqlen 32768,\n"
                "constant B and C, and fp16, each changed from the first, and the official test suite's shape at\n"
                "seqlen 512. B, C variable (one group) unless said; D, z, delta_bias, softplus on."
              : "One small shape (--bench runs the official kernel's configurations). D, z, delta_bias, softplus on.");
  nb.text(
      "× bytes = time ÷ the byte floor (bytes of the byte model ÷ this run's device-to-device copy bandwidth).\n"
      "× exps = time ÷ the exp floor (one exp2 a state step forward, two forward + backward, at 16 MUFU\n"
      "results a clock per multiprocessor and the device's peak clock). Forward + backward times both\n"
      "passes, as training runs them. Each version is checked before and after it is timed on a slice of\n"
      "channels against fp64 (see the check lines), outputs poisoned before each check.");

  Figure f{
      "bench_floor", "Each version's time over its floor (lower is better)", "", "time ÷ floor", false, true, {}, {}};
  // The rotated configuration names and a key of up to 16 series take about 300 px below the
  // plot: a taller figure leaves the plot itself about 400 px.
  f.height = 760;
  std::string tics;
  for (std::size_t i = 0; i < configs.size(); ++i)
    tics += fmt::format("{}\"{} {}×{}×{}{}{}\" {}", tics.empty() ? "" : ", ", dtype_name(configs[i].type),
                        configs[i].batch, configs[i].dim, configs[i].seqlen,
                        configs[i].dstate == 16 ? "" : fmt::format(" N={}", configs[i].dstate),
                        configs[i].variable_BC ? "" : " B,C const", i + 1);
  // The configurations as x tics, the first `shown` of them in range.
  const auto axis_settings = [&](std::size_t shown) {
    return std::vector<std::string>{"set xtics (" + tics + ") rotate by 35 right font ',10'",
                                    fmt::format("set xrange [0.5:{}]", shown + 0.5),
                                    "set key below maxrows 3 font ',10'", "set grid ytics", "set lmargin 12"};
  };
  f.settings = axis_settings(configs.size());
  std::map<std::string, ch08::OfficialTime> measured;
  if (!o.official_csv.empty()) {
    measured = ch08::read_official_csv(o.official_csv);
    for (const auto& [spec, time] : measured)
      if (nb.gpu() && time.device != common::gpu_status().device.name)
        throw std::runtime_error("--official: " + o.official_csv + " was timed on " + time.device + ", this is " +
                                 common::gpu_status().device.name);
  }
  Series official_fwd{"official forward (this run)", {}, {}, "points pt 6 ps 1.5"},
      official_both{"official fwd+bwd (this run)", {}, {}, "points pt 4 ps 1.5"};
  const Series goal_fwd{"goal, forward: 3×", {0.5, configs.size() + 0.5}, {3, 3}, "lines lw 1 dt 2 lc rgb 'gray40'"};
  const Series goal_both{"goal, fwd+bwd: 5×", {0.5, configs.size() + 0.5}, {5, 5}, "lines lw 1 dt 3 lc rgb 'gray40'"};
  const auto draw = [&](std::vector<Series> versions) {
    for (const Series& s : {official_fwd, official_both})
      if (!s.x.empty()) versions.push_back(s);
    versions.push_back(goal_fwd);
    versions.push_back(goal_both);
    f.series = versions;
    nb.figure(f, false);
  };

  if (!nb.gpu()) {
    std::vector<std::vector<std::string>> rows;
    for (const Config& c : configs) {
      const ch08::ByteShape s = byte_shape(c);
      rows.push_back({c.label, megabytes(ch08::forward_bytes(s)), megabytes(ch08::forward_backward_bytes(s))});
    }
    nb.text(
        "The configurations and the bytes of their floors (a GPU run divides them by the copy bandwidth it measures):");
    nb.table({"configuration", "fwd MB", "fwd+bwd MB"}, rows);
    nb.gpu_skip("the benchmark (the figure shows the goals alone)");
    return draw({});
  }

  const std::size_t copy_bytes = std::size_t(bench ? 1024 : 256) << 20;
  common::require_device_memory(2 * copy_bytes, "the copy-bandwidth buffers");
  const double copy_gbps = common::measure_copy_bandwidth(copy_bytes);
  nb.value("device-to-device copy (cudaMemcpyAsync, read + write)", fmt::format("{:.0f} GB/s", copy_gbps));
  const common::DeviceInfo& device_info = common::gpu_status().device;
  const double clock_hz = device_info.clock_khz * 1e3;
  nb.value("exp2 rate (MUFU: 16 a clock × multiprocessors × peak clock)",
           fmt::format("{:.2f}·10^12 a second ({} × {} × {:.2f} GHz)",
                       ch08::kMufuResultsPerClock * device_info.multiprocessors * clock_hz / 1e12,
                       ch08::kMufuResultsPerClock, device_info.multiprocessors, clock_hz / 1e9));
  common::ResultsCsv csv(nb.out_dir() + "/bench.csv", device_info.name, nb.date(),
                         {"configuration",
                          "dtype",
                          "batch",
                          "dim",
                          "seqlen",
                          "dstate",
                          "variable_BC",
                          "version",
                          "kept_h",
                          "kept_h_MB",
                          "fwd_ms",
                          "fwd_floor_ms",
                          "fwd_x_floor",
                          "fwd_exp_floor_ms",
                          "fwd_x_exp_floor",
                          "fwd_GBps",
                          "fwd_bwd_ms",
                          "fwd_bwd_floor_ms",
                          "fwd_bwd_x_floor",
                          "fwd_bwd_exp_floor_ms",
                          "fwd_bwd_x_exp_floor",
                          "fwd_bwd_GBps",
                          "fwd_speedup_v1",
                          "fwd_speedup_v2",
                          "fwd_speedup_v4",
                          "fwd_bwd_speedup_v1",
                          "fwd_bwd_speedup_v2",
                          "fwd_bwd_speedup_v4",
                          "official_fwd_ms",
                          "official_fwd_bwd_ms",
                          "fwd_speedup_official",
                          "fwd_bwd_speedup_official",
                          "official_fwd_x_floor",
                          "official_fwd_bwd_x_floor",
                          "official_source",
                          "copy_GBps",
                          "clock_MHz",
                          "plan"});
  Figure against_official{"bench_official",
                          "Speedup over the official kernel (timed in the same run)",
                          "",
                          "official time ÷ this version's",
                          false,
                          true,
                          {},
                          {}};
  against_official.settings = axis_settings(configs.size());
  against_official.height = f.height;  // the same configuration names and key below the plot
  std::vector<Series> official_speedups;
  common::CheckedTiming timing(nb, {2, bench ? 10 : 5, true});
  const std::vector<Run> runs = selected_runs(nb.options());
  std::vector<Series> versions;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const std::string name =
        runs[r].kernel == Kernel::automatic
            ? "auto"
            : fmt::format("v{}{}", int(runs[r].kernel), runs[r].keep_checkpoints ? " + kept h" : "");
    // One colour a run (gnuplot's line type), a filled circle forward, a square both ways.
    const int colour = int(r) + 1;
    versions.push_back({name + " forward", {}, {}, fmt::format("linespoints lw 2 pt 7 lc {}", colour)});
    versions.push_back({name + " fwd+bwd", {}, {}, fmt::format("linespoints lw 2 dt 2 pt 5 lc {}", colour)});
    official_speedups.push_back({name + " forward", {}, {}, fmt::format("points pt 7 ps 1.2 lc {}", colour)});
    official_speedups.push_back({name + " fwd+bwd", {}, {}, fmt::format("points pt 5 ps 1.2 lc {}", colour)});
  }
  // The byte floor: the time this run's copy takes to move the bytes.
  const auto floor_ms = [&](std::int64_t bytes) { return double(bytes) / (copy_gbps * 1e9) * 1e3; };
  std::vector<std::vector<std::string>> rows;
  for (std::size_t ci = 0; ci < configs.size(); ++ci) {
    const Config& c = configs[ci];
    const ch08::ByteShape shape = byte_shape(c);
    const double fwd_floor_ms = floor_ms(ch08::forward_bytes(shape));
    const double both_floor_ms = floor_ms(ch08::forward_backward_bytes(shape));
    const int sms = device_info.multiprocessors;
    const double fwd_exp_ms = ch08::exp_floor_seconds(shape, ch08::kForwardExps, sms, clock_hz) * 1e3;
    const double both_exp_ms = ch08::exp_floor_seconds(shape, ch08::kForwardBackwardExps, sms, clock_hz) * 1e3;
    const OfficialTimes official = official_times(c, measured);
    // The official kernel's time over its own floor: its bytes counted as it stores them (chunk
    // states as (decay, state) pairs, dB and dC in the input type, no last state).
    ch08::ByteShape as_official = shape;
    as_official.has_last_state = false;
    as_official.accounting = ch08::StateAccounting::official_kernel;
    const double official_fwd_x = official.forward_ms / floor_ms(ch08::forward_bytes(as_official));
    const double official_both_x = official.forward_backward_ms / floor_ms(ch08::forward_backward_bytes(as_official));
    if (official.forward_ms > 0) {
      official_fwd.x.push_back(double(ci + 1)), official_fwd.y.push_back(official_fwd_x);
      official_both.x.push_back(double(ci + 1)), official_both.y.push_back(official_both_x);
      rows.push_back({c.label, "official", "its own", fmt::format("{:.3f}", official.forward_ms),
                      fmt::format("{:.1f}×", official_fwd_x), fmt::format("{:.1f}×", official.forward_ms / fwd_exp_ms),
                      fmt::format("{:.3f}", official.forward_backward_ms), fmt::format("{:.1f}×", official_both_x),
                      fmt::format("{:.1f}×", official.forward_backward_ms / both_exp_ms), "-", "-", "-", "-", "-"});
    }
    const Problem p = benchmark_problem(c, nb.options().seed + ci);
    const SliceCheck slice(p, c.type, slice_channels(c.dim), nb.options().seed + 100 + ci);
    std::vector<Timed> times(runs.size());
    std::vector<std::int64_t> kept_bytes(runs.size(), 0);
    std::vector<std::string> plans(runs.size());
    for (std::size_t r = 0; r < runs.size(); ++r) {
      ch08::DeviceProblem device(p, c.type, runs[r].kernel, false, 0, runs[r].keep_checkpoints);
      plans[r] = selective_scan::plan_of(device.backward_params()).summary();
      kept_bytes[r] =
          runs[r].keep_checkpoints ? selective_scan::state_checkpoints_floats(device.forward_params()) * 4 : 0;
      if (runs[r].keep_checkpoints && kept_bytes[r] == 0) continue;  // version 5 declines the call: nothing to keep
      device.set_dout(slice.dout());
      const auto poison = [&] { device.poison_outputs(); };
      const std::string what = fmt::format("version {}, {}", runs[r].label(), c.label);
      Timed& t = times[r];
      t.forward = timing.time(
          what + ", forward", poison, [&] { device.forward(); }, [&] { return slice.forward_failure(device); });
      t.forward_backward = timing.time(
          what + ", forward + backward", poison,
          [&] {
            device.forward();
            device.backward();
          },
          [&] { return slice.forward_backward_failure(device); });
    }
    const auto time_of = [](const std::optional<common::TimingStats>& t) { return t ? t->median_ms : 0.0; };
    // A version's time without kept states (0 where it did not run), for the speedups.
    const auto ms = [&](int version, bool both) {
      for (std::size_t r = 0; r < runs.size(); ++r)
        if (int(runs[r].kernel) == version && !runs[r].keep_checkpoints)
          return time_of(both ? times[r].forward_backward : times[r].forward);
      return 0.0;
    };
    for (std::size_t r = 0; r < runs.size(); ++r) {
      const int v = int(runs[r].kernel);
      const double fwd = time_of(times[r].forward), both = time_of(times[r].forward_backward);
      if (fwd <= 0 && both <= 0) continue;
      const auto cell = [](double value, const char* format) {
        return value > 0 ? fmt::format(fmt::runtime(format), value) : std::string("-");
      };
      const double fwd_x = fwd / fwd_floor_ms, both_x = both / both_floor_ms;
      const double fwd_gbps = fwd > 0 ? common::gigabytes_per_second(double(ch08::forward_bytes(shape)), fwd) : 0;
      const double both_gbps =
          both > 0 ? common::gigabytes_per_second(double(ch08::forward_backward_bytes(shape)), both) : 0;
      const double official_fwd_ms = official.forward_ms, official_both_ms = official.forward_backward_ms;
      const std::string kept_mb = kept_bytes[r] > 0 ? megabytes(kept_bytes[r]) : "-";
      rows.push_back({c.label, runs[r].label(), plans[r], cell(fwd, "{:.3f}"), cell(fwd_x, "{:.1f}×"),
                      cell(fwd / fwd_exp_ms, "{:.1f}×"), cell(both, "{:.3f}"), cell(both_x, "{:.1f}×"),
                      cell(both / both_exp_ms, "{:.1f}×"), ratio(ms(4, false), fwd), ratio(ms(4, true), both),
                      ratio(official_fwd_ms, fwd), ratio(official_both_ms, both), kept_mb});
      csv.row({c.label,
               dtype_name(c.type),
               std::to_string(c.batch),
               std::to_string(c.dim),
               std::to_string(c.seqlen),
               std::to_string(c.dstate),
               c.variable_BC ? "1" : "0",
               v == 0 ? "auto" : std::to_string(v),
               kept_bytes[r] > 0 ? "1" : "0",
               kept_mb == "-" ? "0" : kept_mb,
               cell(fwd, "{:.4f}"),
               fmt::format("{:.4f}", fwd_floor_ms),
               cell(fwd_x, "{:.2f}"),
               fmt::format("{:.4f}", fwd_exp_ms),
               cell(fwd / fwd_exp_ms, "{:.2f}"),
               cell(fwd_gbps, "{:.1f}"),
               cell(both, "{:.4f}"),
               fmt::format("{:.4f}", both_floor_ms),
               cell(both_x, "{:.2f}"),
               fmt::format("{:.4f}", both_exp_ms),
               cell(both / both_exp_ms, "{:.2f}"),
               cell(both_gbps, "{:.1f}"),
               ratio(ms(1, false), fwd),
               ratio(ms(2, false), fwd),
               ratio(ms(4, false), fwd),
               ratio(ms(1, true), both),
               ratio(ms(2, true), both),
               ratio(ms(4, true), both),
               cell(official_fwd_ms, "{:.3f}"),
               cell(official_both_ms, "{:.3f}"),
               ratio(official_fwd_ms, fwd),
               ratio(official_both_ms, both),
               official.forward_ms > 0 ? fmt::format("{:.2f}", official_fwd_x) : "",
               official.forward_ms > 0 ? fmt::format("{:.2f}", official_both_x) : "",
               official.source,
               fmt::format("{:.1f}", copy_gbps),
               fmt::format("{:.0f}", clock_hz / 1e6),
               plans[r]});
      const double x = double(ci + 1) + 0.07 * (double(r) - 2.5);  // runs side by side, not on top of each other
      if (official_fwd_ms > 0 && fwd > 0)
        official_speedups[2 * r].x.push_back(x), official_speedups[2 * r].y.push_back(official_fwd_ms / fwd);
      if (official_both_ms > 0 && both > 0)
        official_speedups[2 * r + 1].x.push_back(x), official_speedups[2 * r + 1].y.push_back(official_both_ms / both);
      if (fwd > 0) versions[2 * r].x.push_back(double(ci + 1)), versions[2 * r].y.push_back(fwd_x);
      if (both > 0) versions[2 * r + 1].x.push_back(double(ci + 1)), versions[2 * r + 1].y.push_back(both_x);
    }
  }
  nb.table({"configuration", "version", "plan", "fwd ms", "× bytes", "× exps", "fwd+bwd ms", "× bytes", "× exps",
            "fwd vs v4", "f+b vs v4", "fwd vs official", "f+b vs official", "kept h MB"},
           rows);
  nb.text((measured.empty()
               ? std::string("vs v4: the speedup over version 4 (the official kernel was not timed in this run: "
                             "--official\ngives official-bench's CSV)")
               : "official: the official kernel, timed in this run by official-bench (" + o.official_csv +
                     "), its\nfloor counted as it stores its data. vs v4, vs official: the speedup over version 4 "
                     "and over it") +
          ": their time divided by this version's. The chapter's goal is 2 against the official\n"
          "kernel in both directions. The CSV also has GB/s and the speedups over versions 1 and 2.\n"
          "+ kept h: version 5's forward keeps h every 8 steps (state_checkpoints) and its backward reads them\n"
          "instead of recomputing them; kept h MB is that memory, which the official kernel does not spend (it\n"
          "keeps one state every 2048 steps, as every row here does too). The floors are the same for both: the\n"
          "kept states are bytes the kernel chooses to move, not bytes the problem needs. Where version 5's\n"
          "forward declines a call (dstate above 16, B and C both constant), it keeps nothing and has no such row.");
  nb.value("results", csv.path());
  timing.report("the timed versions match fp64 before and after timing", SliceCheck::describe());
  std::vector<Series> drawn;
  for (const Series& s : versions)
    if (!s.x.empty()) drawn.push_back(s);
  draw(drawn);
  if (bench && !measured.empty()) {
    for (const Series& s : official_speedups)
      if (!s.x.empty()) against_official.series.push_back(s);
    against_official.series.push_back(
        {"level with the official kernel", {0.5, configs.size() + 0.5}, {1, 1}, "lines lw 1 dt 3 lc rgb 'gray40'"});
    against_official.series.push_back(
        {"goal: 2×", {0.5, configs.size() + 0.5}, {2, 2}, "lines lw 1 dt 2 lc rgb 'gray40'"});
    nb.figure(against_official, false);
  }
}

}  // namespace ch08

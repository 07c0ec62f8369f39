// selective_scan_step_bench -- the one-token step (selective_scan::step) against the official
// selective_state_update, timed in the same device call.
//
// For every shape, written as the official benchmark takes it (triton_bench.py step:
// "dtype:b,d,n" in Mamba-1's form, "dtype:b,h,p,n[,g]" in Mamba-2's), with its inputs drawn as
// that benchmark draws them (step_bench_problem.hpp), and the state in the input type (as the
// official call holds it) and, where that is not fp32, in fp32 too, this
//   1. checks one step against the fp64 reference (out poisoned first), before and after timing;
//   2. times the kernel alone, the call as a caller waits for it, the call as the official call is
//      timed, and the step replayed from a CUDA graph (step_timing.hpp), and a device-to-device
//      copy of the same bytes;
//   3. joins the official call's times from triton_bench.py's CSV (--official) and prints a table
//      and step.csv: our kernel, call and graph times, the official kernel and call times, their
//      ratios (official / ours), the bytes a step moves and the share of the copy's speed.
// The official kernel time is its kernels' own (torch.profiler, calls back to back, so a state that
// fits in the L2 cache is read from it), its call time CUDA events around the Python call. Ours:
// the kernel's events with the L2 flushed first (kernel); 20 steps back to back between one pair
// of events, the L2 left warm (kernel_warm, the gaps between launches included); the kernel's own
// durations from the profiler's records, steps back to back (own: as the official kernels are
// timed); the host's clock around step() and a synchronise (call), which also counts the wake-up:
// the stricter figure for ours; and events around step() on an idle GPU (events: the official
// call's own measure).
// scripts/step-bench runs the official benchmark and then this on the same shapes.
//
//   selective_scan_step_bench --official official.csv --out build/step-bench
//   selective_scan_step_bench --shape bf16:64,5120,16 --shape fp32:8,80,64,128 --reps 500
//   selective_scan_step_bench --list-official      the official benchmark's arguments, one a line
#include "step_bench_problem.hpp"
#include "step_shape.hpp"
#include "step_timing.hpp"

#include "cuda_check.hpp"
#include "gpu.hpp"
#include "notebook.hpp"
#include "options.hpp"
#include "results_csv.hpp"
#include "timing.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

namespace {

using ch08::step_bench::OfficialTime;
using ch08::step_bench::Shape;
using selective_scan::DataType;

constexpr const char* kProgram = "selective_scan_step_bench";

struct Options {
  std::vector<Shape> shapes;  // empty: the default shapes
  std::string official_csv;
  std::map<std::string, OfficialTime> official;
  std::string states = "both";  // input, fp32, both
  bool list_official = false;
  int repetitions = 200;
  std::string out = "plots/08_selective_scan/step";
  std::uint64_t seed = 42;
};

// The state types a shape is timed with: the input type (the official benchmark's) and fp32.
std::vector<DataType> state_types(const Shape& s, const std::string& which) {
  if (which == "input" || s.type == DataType::float32) return {s.type};
  if (which == "fp32") return {DataType::float32};
  return {s.type, DataType::float32};
}

std::string type_name(DataType t) {
  return t == DataType::float32 ? "fp32" : t == DataType::bfloat16 ? "bf16" : "fp16";
}

// One timed row, kept for the table at the end.
struct Row {
  std::string shape, state;
  double kernel_ms = 0, kernel_warm_ms = 0, own_ms = 0, call_ms = 0, call_events_ms = 0, graph_ms = 0;
  const OfficialTime* official = nullptr;
  double bytes = 0, percent_of_copy = 0;
  bool state_is_input_type = false;
};

std::string cell(double value, const char* format = "{:.5f}") {
  return value > 0 ? fmt::format(fmt::runtime(format), value) : "";
}

void print_table(const std::vector<Row>& rows) {
  const auto us = [](double ms) { return ms > 0 ? fmt::format("{:.1f}", 1000 * ms) : "-"; };
  const auto ratio = [](const OfficialTime* o, double official, double ours, int decimals) {
    return o ? fmt::format("{:.{}f}", official / ours, decimals) : "-";
  };
  fmt::print("\n{:<34} {:<5} | {:>45} | {:>15} | {:>34} | {:>7} {:>6}\n", "", "", "ours (us)", "official (us)",
             "official / ours", "", "");
  fmt::print(
      "{:<34} {:<5} | {:>7} {:>6} {:>6} {:>7} {:>6} {:>8} | {:>6} {:>8} | {:>6} {:>6} {:>6} {:>6} {:>6} | {:>7} "
      "{:>6}\n",
      "shape", "state", "kernel", "warm", "own", "call", "events", "graph", "kernel", "call", "kernel", "warm", "own",
      "call", "events", "MB", "% copy");
  for (const Row& r : rows) {
    const OfficialTime* o = r.official;
    const double official_kernel = o ? o->kernel_ms : 0;
    const double official_call = o ? o->call_ms : 0;
    fmt::print(
        "{:<34} {:<5} | {:>7} {:>6} {:>6} {:>7} {:>6} {:>8} | {:>6} {:>8} | {:>6} {:>6} {:>6} {:>6} {:>6} | {:>7.2f} "
        "{:>6.0f}\n",
        r.shape, r.state, us(r.kernel_ms), us(r.kernel_warm_ms), us(r.own_ms), us(r.call_ms), us(r.call_events_ms),
        us(r.graph_ms), o ? us(o->kernel_ms) : "-", o ? us(o->call_ms) : "-", ratio(o, official_kernel, r.kernel_ms, 2),
        ratio(o, official_kernel, r.kernel_warm_ms, 2), ratio(o, official_kernel, r.own_ms, 2),
        ratio(o, official_call, r.call_ms, 1), ratio(o, official_call, r.call_events_ms, 1), r.bytes / 1e6,
        r.percent_of_copy);
  }
}

// The goal: the kernel at least as fast as the official kernels, the call at least 10x faster than
// the official call, with the state in the input type as the official call holds it.
void print_goal(const std::vector<Row>& rows) {
  int compared = 0, kernel_met = 0, warm_met = 0, own_met = 0, call_met = 0, events_met = 0;
  for (const Row& r : rows) {
    if (!r.official || !r.state_is_input_type) continue;
    ++compared;
    kernel_met += r.official->kernel_ms >= r.kernel_ms;
    warm_met += r.official->kernel_ms >= r.kernel_warm_ms;
    own_met += r.official->kernel_ms >= r.own_ms;
    call_met += r.official->call_ms >= 10 * r.call_ms;
    events_met += r.official->call_ms >= 10 * r.call_events_ms;
  }
  if (compared == 0) return;
  fmt::print(
      "\ngoal, the state in the input type as the official call holds it, on {} shapes: the kernel at or above 1x the "
      "official kernels on {} (L2 flushed), {} (L2 warm, events around steps back to back) and {} (the profiler's "
      "durations, as the official kernels are timed); the call at least 10x faster than the official call on {} (the "
      "host's clock around the call and a synchronise) and {} (events around the call, as the official call is "
      "timed)\n",
      compared, kernel_met, warm_met, own_met, call_met, events_met);
}

int run(const Options& o) {
  const std::vector<Shape> shapes = o.shapes.empty() ? ch08::step_bench::default_shapes() : o.shapes;
  if (o.list_official) {
    std::set<std::string> listed;
    for (const Shape& s : shapes)
      if (listed.insert(s.official_spec()).second) std::cout << s.official_spec() << "\n";
    return 0;
  }
  std::string why_not;
  if (!common::gpu_available(&why_not)) {
    std::cout << kProgram << ": skipped, it needs a GPU to time the step: " << why_not << "\n";
    return 77;
  }
  const std::string device = common::gpu_status().device.name;
  for (const auto& [spec, time] : o.official)
    if (time.device != device)
      throw std::runtime_error("the official times in " + o.official_csv + " come from " + time.device + ", this is " +
                               device);
  const std::string date = common::today();
  const double copy_gbps = common::measure_copy_bandwidth(std::size_t(256) << 20, {5, 20, true});
  fmt::print("{} on {} ({}): {} shapes, median of {} repetitions; official times: {}\n", kProgram, device, date,
             shapes.size(), o.repetitions, o.official_csv.empty() ? "none given" : o.official_csv);
  fmt::print("device-to-device copy of 256 MiB: {:.0f} GB/s (read + write)\n", copy_gbps);
  common::ResultsCsv csv(o.out + "/step.csv", device, date,
                         {"dtype",
                          "form",
                          "shape",
                          "batch",
                          "state",
                          "plan",
                          "kernel_ms",
                          "kernel_min_ms",
                          "kernel_max_ms",
                          "kernel_warm_ms",
                          "kernel_own_ms",
                          "call_ms",
                          "call_events_ms",
                          "graph_ms",
                          "official_kernel_ms",
                          "official_call_ms",
                          "kernel_ratio",
                          "kernel_warm_ratio",
                          "kernel_own_ratio",
                          "call_ratio",
                          "call_events_ratio",
                          "bytes",
                          "GBps",
                          "copy_ms",
                          "pct_of_copy",
                          "check",
                          "state_max_abs_err",
                          "out_max_abs_err"});
  common::GpuTimer copy_timer({10, o.repetitions, true});
  ch08::step_bench::L2Flush flush;
  std::vector<Row> rows;
  bool all_checked = true;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const Shape& s = shapes[i];
    ch08::step_bench::StepBenchProblem problem(s, o.seed + 1000 * i);
    const auto found = o.official.find(s.official_spec());
    const OfficialTime* official = found == o.official.end() ? nullptr : &found->second;
    for (DataType state_type : state_types(s, o.states)) {
      problem.use_state(state_type);
      const selective_scan::StepPlan plan = selective_scan::step_plan_of(problem.params());
      const ch08::step_bench::CheckOutcome before = problem.check();
      const ch08::step_bench::StepTimes t = ch08::step_bench::time_step(problem.params(), flush, o.repetitions);
      const ch08::step_bench::CheckOutcome after = problem.check();
      const bool ok = before.ok && after.ok;
      all_checked = all_checked && ok;
      const double bytes = s.bytes_moved(state_type);
      // A copy of half the bytes reads and writes as many as the step moves.
      const double copy_ms =
          common::time_device_copy(std::max<std::size_t>(1, std::size_t(bytes / 2)), copy_timer).median_ms;
      Row r;
      r.shape = s.label(), r.state = type_name(state_type), r.official = official;
      r.kernel_ms = t.kernel.median_ms, r.kernel_warm_ms = t.kernel_warm.median_ms, r.own_ms = t.own.median_ms;
      r.call_ms = t.call.median_ms, r.call_events_ms = t.call_events.median_ms, r.graph_ms = t.graph.median_ms;
      r.bytes = bytes, r.percent_of_copy = 100 * copy_ms / t.kernel.median_ms;
      r.state_is_input_type = state_type == s.type;
      fmt::print("{:<34} state {}: {}; {} one step {} (state {:.1e}, out {:.1e}){}\n", r.shape, r.state, plan.summary(),
                 ok ? "✔" : "✘", ok ? "matches the fp64 reference before and after timing" : "FAILS",
                 std::max(before.state_error, after.state_error), std::max(before.out_error, after.out_error),
                 ok ? "" : "\n    before: " + before.summary + "\n    after: " + after.summary);
      std::fflush(stdout);
      csv.row({s.dtype(),
               s.form == ch08::step_bench::Form::mamba1 ? "mamba1" : "mamba2",
               s.official_shape(),
               std::to_string(s.batch),
               r.state,
               plan.summary(),
               cell(r.kernel_ms),
               cell(t.kernel.min_ms),
               cell(t.kernel.max_ms),
               cell(r.kernel_warm_ms),
               cell(r.own_ms),
               cell(r.call_ms),
               cell(r.call_events_ms),
               cell(r.graph_ms),
               official ? cell(official->kernel_ms) : "",
               official ? cell(official->call_ms) : "",
               official ? cell(official->kernel_ms / r.kernel_ms, "{:.3f}") : "",
               official ? cell(official->kernel_ms / r.kernel_warm_ms, "{:.3f}") : "",
               official ? cell(official->kernel_ms / r.own_ms, "{:.3f}") : "",
               official ? cell(official->call_ms / r.call_ms, "{:.3f}") : "",
               official ? cell(official->call_ms / r.call_events_ms, "{:.3f}") : "",
               fmt::format("{:.0f}", bytes),
               cell(common::gigabytes_per_second(bytes, r.kernel_ms), "{:.1f}"),
               cell(copy_ms),
               cell(r.percent_of_copy, "{:.1f}"),
               ok ? "ok" : "FAILED",
               fmt::format("{:.2e}", std::max(before.state_error, after.state_error)),
               fmt::format("{:.2e}", std::max(before.out_error, after.out_error))});
      rows.push_back(r);
    }
  }
  print_table(rows);
  print_goal(rows);
  fmt::print("wrote {}\n", csv.path());
  if (!all_checked) std::cerr << kProgram << ": a step did not match the fp64 reference (see above)\n";
  return all_checked ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"selective_scan::step against the official selective_state_update (chapter 08)", kProgram};
  std::vector<std::string> shape_specs;
  app.add_option("--shape", shape_specs,
                 "Time this shape instead of the default ones, as triton_bench.py step takes it: bf16:64,5120,16 "
                 "(Mamba-1: b,d,n) or bf16:64,80,64,128 (Mamba-2: b,h,p,n[,g]); repeatable");
  app.add_option("--official", o.official_csv,
                 "triton_bench.py step's CSV for the same shapes, from the same device call")
      ->check(CLI::ExistingFile);
  app.add_option("--states", o.states, "The state's types: the input type (the official call's), fp32, or both")
      ->check(CLI::IsMember({"input", "fp32", "both"}))
      ->capture_default_str();
  app.add_option("--reps", o.repetitions, "Timed repetitions a measurement (the median is kept)")
      ->check(common::integer_in(1, 100000))
      ->capture_default_str();
  app.add_flag("--list-official", o.list_official, "Print triton_bench.py step's arguments, one a line, and exit");
  app.add_option("--out", o.out, "Directory for step.csv")->capture_default_str();
  app.add_option("--seed", o.seed, "Seed of the random inputs")
      ->check(common::unsigned_integer())
      ->capture_default_str();
  if (const std::optional<int> exit_code = common::parse_command_line(app, argc, argv)) return *exit_code;
  try {
    for (const std::string& spec : shape_specs) o.shapes.push_back(ch08::step_bench::parse_shape(spec));
  } catch (const std::invalid_argument& e) {
    common::print_option_error(app, e.what());
    return 2;
  }
  try {
    if (!o.official_csv.empty()) o.official = ch08::step_bench::read_official_csv(o.official_csv);
  } catch (const std::exception& e) {
    common::print_option_error(app, std::string("--official: ") + e.what());
    return 2;
  }
  if (!o.list_official) {
    std::error_code error;
    std::filesystem::create_directories(o.out, error);
    if (error || !std::filesystem::is_directory(o.out)) {
      common::print_option_error(app, "--out: cannot create '" + o.out + "'" + (error ? ": " + error.message() : ""));
      return 2;
    }
  }
  try {
    return run(o);
  } catch (const std::exception& e) {
    std::cerr << kProgram << ": " << e.what() << "\n";
    return 1;
  }
}

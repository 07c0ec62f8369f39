// selective_scan_grid -- Kernel::automatic against the official kernel across a grid of shapes.
//
// For every shape of a grid (grid_shapes.cpp) this times the library's forward and forward +
// backward with Kernel::automatic -- and with --versions every explicit version too, the sweep
// that chose automatic's rule -- on the GPU, prints the plan each call ran, and joins the
// official kernel's times from official-bench's CSV (--official), measured in the same device
// call: scripts/grid-bench runs both. The speedups go to a CSV and a heat map (grid_speedup.svg).
// Timing follows official-bench's conventions: 5 warm-up calls, the median of 30 timed ones
// (CUDA events), the L2 cache not flushed.
#include "busy_gpu.hpp"
#include "grid_problem.hpp"
#include "grid_shapes.hpp"
#include "heat_map.hpp"

#include "cuda_check.hpp"
#include "gpu.hpp"
#include "notebook.hpp"
#include "results_csv.hpp"
#include "timing.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>

namespace {

using ch08::OfficialTime;
using ch08::grid::Shape;
using selective_scan::Kernel;

struct Options {
  std::string grid = "full";
  std::vector<Shape> shapes;  // --shape: these instead of the grid
  std::string dtype;          // empty: every type of the grid
  std::string official_csv;
  bool versions = false;
  bool list_official = false;
  bool split = false;      // also time the host's issue and the GPU's run of each call apart
  std::string redraw_csv;  // a recorded grid.csv: draw its heat map again, no GPU needed
  int repetitions = 30;
  std::string out = "plots/08_selective_scan/grid";
  std::uint64_t seed = 42;
};

// One timed configuration of a shape: a kernel, with or without the kept states.
struct Config {
  Kernel kernel;
  bool keep_states;
  std::string name() const {
    const std::string k = kernel == Kernel::automatic ? "auto" : fmt::format("v{}", int(kernel));
    return keep_states ? k + " + kept h" : k;
  }
};

std::vector<Config> configs(const Options& o) {
  std::vector<Config> c{{Kernel::automatic, false}, {Kernel::automatic, true}};
  if (o.versions)
    for (Kernel k : {Kernel::blocked, Kernel::registers, Kernel::ring})
      if (selective_scan::version_built(k)) c.push_back({k, false});
  return c;
}

// max over the tensors of ||a - r||inf / ||r||inf: how far a run's results lie from version 2's
// (a sanity check of the timed runs; the tests hold every version to the fp64 reference).
double largest_relative_difference(const std::vector<std::vector<float>>& a, const std::vector<std::vector<float>>& r) {
  double worst = 0;
  for (std::size_t t = 0; t < a.size(); ++t) {
    double diff = 0, scale = 0;
    for (std::size_t i = 0; i < a[t].size(); ++i) {
      diff = std::max(diff, double(std::fabs(a[t][i] - r[t][i])));
      scale = std::max(scale, double(std::fabs(r[t][i])));
      if (!std::isfinite(a[t][i])) return INFINITY;
    }
    if (scale > 0) worst = std::max(worst, diff / scale);
  }
  return worst;
}

// --split: the host's time to issue a call and the GPU's time to run it, apart. An event-timed
// call from an idle GPU (GpuTimer, as official-bench) counts both where the host issues more
// slowly than the GPU runs, as in small calls. Here each repetition issues the call behind
// keep_gpu_busy: the host's clock times the issue, the events the GPU's run. Medians, in ms.
struct SplitTimes {
  double host_ms, gpu_ms;
};
constexpr double kBusyMicroseconds = 2000;  // far longer than any call takes to issue

template <class Call>
SplitTimes split_times(Call&& call, int repetitions) {
  cudaEvent_t start = nullptr, stop = nullptr;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<double> host, gpu;
  for (int i = 0; i < repetitions; ++i) {
    CUDA_CHECK(cudaDeviceSynchronize());
    ch08::grid::keep_gpu_busy(kBusyMicroseconds);
    CUDA_CHECK(cudaEventRecord(start));
    const auto issued_from = std::chrono::steady_clock::now();
    call();
    host.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - issued_from).count());
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    gpu.push_back(ms);
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  if (*std::max_element(host.begin(), host.end()) > kBusyMicroseconds / 1000)
    throw std::runtime_error("--split: a call took longer to issue than the GPU was kept busy");
  return {common::summarize(host).median_ms, common::summarize(gpu).median_ms};
}

std::string cell(double value, const char* format = "{:.4f}") {
  return value > 0 ? fmt::format(fmt::runtime(format), value) : "";
}

// The heat map of a recorded grid.csv (its automatic rows), drawn beside it: how a run recorded
// on the GPU machine gets its figure where gnuplot is installed.
int redraw(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::string line, device, date;
  std::vector<ch08::grid::HeatCell> cells;
  std::getline(in, line);  // the header
  while (std::getline(in, line)) {
    std::vector<std::string> c;
    std::string cell;
    bool quoted = false;
    for (char ch : line) {  // ResultsCsv quotes a cell holding a comma
      if (ch == '"')
        quoted = !quoted;
      else if (ch == ',' && !quoted)
        c.push_back(cell), cell.clear();
      else
        cell += ch;
    }
    c.push_back(cell);
    // device, date, dtype, batch, dim, seqlen, dstate, groups, z_D_bias, config, plan, fwd_ms, fwd_bwd_ms,
    // official_fwd_ms, official_fwd_bwd_ms, fwd_speedup, fwd_bwd_speedup, max_rel_diff_vs_v2
    if (c.size() != 18) throw std::runtime_error(path + ": not a selective_scan_grid row: " + line);
    if (c[9] != "auto" || c[15].empty()) continue;
    device = c[0], date = c[1];
    Shape s;
    s.type = ch08::grid::type_named(c[2]);
    s.batch = std::stoll(c[3]), s.dim = std::stoll(c[4]), s.seqlen = std::stoll(c[5]);
    s.dstate = std::stoi(c[6]), s.groups = std::stoi(c[7]);
    s.z = s.D = s.delta_bias = c[8] == "yes";
    cells.push_back({s, std::stod(c[15]), std::stod(c[16])});
  }
  const std::string dir = std::filesystem::path(path).parent_path().string();
  fmt::print("{}\n", ch08::grid::draw_heat_map(cells, dir.empty() ? "." : dir, device, date));
  return 0;
}

int run(const Options& o) {
  if (!o.redraw_csv.empty()) return redraw(o.redraw_csv);
  std::vector<Shape> shapes = o.shapes.empty() ? ch08::grid::grid_named(o.grid) : o.shapes;
  if (!o.dtype.empty()) std::erase_if(shapes, [&](const Shape& s) { return s.dtype() != o.dtype; });
  if (o.list_official) {
    std::set<std::string> listed;
    for (const Shape& s : shapes)
      if (listed.insert(s.official_spec()).second) std::cout << s.official_spec() << "\n";
    return 0;
  }
  std::map<std::string, OfficialTime> official;
  if (!o.official_csv.empty()) official = ch08::read_official_csv(o.official_csv);
  std::string why_not;
  if (!common::gpu_available(&why_not)) {
    std::cout << "selective_scan_grid: skipped, it times GPU kernels: " << why_not << "\n";
    return 77;
  }
  const std::string device = common::gpu_status().device.name;
  for (const auto& [spec, time] : official)
    if (time.device != device)
      throw std::runtime_error("the official times in " + o.official_csv + " come from " + time.device + ", this is " +
                               device);
  std::filesystem::create_directories(o.out);
  common::ResultsCsv csv(
      o.out + "/grid.csv", device, common::today(),
      {"dtype", "batch", "dim", "seqlen", "dstate", "groups", "z_D_bias", "config", "plan", "fwd_ms", "fwd_bwd_ms",
       "official_fwd_ms", "official_fwd_bwd_ms", "fwd_speedup", "fwd_bwd_speedup", "max_rel_diff_vs_v2"});
  fmt::print("selective_scan_grid on {} ({}), {}, {} shapes; official times: {}\n", device, common::today(),
             o.shapes.empty() ? "grid '" + o.grid + "'" : std::string("shapes given"), shapes.size(),
             o.official_csv.empty() ? "none given" : o.official_csv);
  common::GpuTimer timer({5, o.repetitions, false});
  std::vector<ch08::grid::HeatCell> cells;
  int below = 0, compared = 0;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const Shape& s = shapes[i];
    ch08::grid::GridProblem problem(s, o.seed + 1000 * i);
    // Version 2's results, once, for the sanity check.
    selective_scan::BackwardParams reference_params = problem.params(Kernel::blocked, false);
    problem.poison_outputs();
    selective_scan::forward(reference_params.forward);
    selective_scan::backward(reference_params);
    const std::vector<std::vector<float>> reference = problem.results();
    const auto found = official.find(s.official_spec());
    const OfficialTime* off = found == official.end() ? nullptr : &found->second;
    for (const Config& c : configs(o)) {
      selective_scan::BackwardParams p = problem.params(c.kernel, c.keep_states);
      const selective_scan::Plan plan = selective_scan::plan_of(p);
      if (c.keep_states && plan.state_checkpoints_floats == 0) continue;  // the same run as without
      const double fwd = timer.time([&] { selective_scan::forward(p.forward); }).median_ms;
      const double both = timer
                              .time([&] {
                                selective_scan::forward(p.forward);
                                selective_scan::backward(p);
                              })
                              .median_ms;
      problem.poison_outputs();
      selective_scan::forward(p.forward);
      selective_scan::backward(p);
      const double difference = largest_relative_difference(problem.results(), reference);
      const double fwd_speedup = off ? off->forward_ms / fwd : 0,
                   both_speedup = off ? off->forward_backward_ms / both : 0;
      csv.row({s.dtype(), std::to_string(s.batch), std::to_string(s.dim), std::to_string(s.seqlen),
               std::to_string(s.dstate), std::to_string(s.groups), s.z ? "yes" : "no", c.name(), plan.summary(),
               fmt::format("{:.4f}", fwd), fmt::format("{:.4f}", both), off ? cell(off->forward_ms) : "",
               off ? cell(off->forward_backward_ms) : "", cell(fwd_speedup, "{:.3f}"), cell(both_speedup, "{:.3f}"),
               fmt::format("{:.2e}", difference)});
      fmt::print("{:<36} {:<10} {:<28} fwd {:>9.4f} ms{:>8}  f+b {:>9.4f} ms{:>8}  diff {:.1e}\n", s.label(), c.name(),
                 plan.summary(), fwd, off ? fmt::format("{:.2f}x", fwd_speedup) : "", both,
                 off ? fmt::format("{:.2f}x", both_speedup) : "", difference);
      if (o.split) {
        const SplitTimes f = split_times([&] { selective_scan::forward(p.forward); }, o.repetitions);
        const SplitTimes b = split_times(
            [&] {
              selective_scan::forward(p.forward);
              selective_scan::backward(p);
            },
            o.repetitions);
        // Of a forward's issue, what validate and the plan take (the rest: the launches).
        const double checks =
            common::time_cpu([&] { return selective_scan::validate(p.forward); }, 1, o.repetitions).median_ms;
        const double plan =
            common::time_cpu([&] { return selective_scan::plan_of(p.forward); }, 1, o.repetitions).median_ms;
        fmt::print(
            "{:<36} {:<10} issue / GPU alone: fwd {:.1f} / {:.1f} us (validate {:.1f}, plan {:.1f}), f+b {:.1f} / "
            "{:.1f} us\n",
            "", "", 1000 * f.host_ms, 1000 * f.gpu_ms, 1000 * checks, 1000 * plan, 1000 * b.host_ms, 1000 * b.gpu_ms);
      }
      if (c.kernel == Kernel::automatic && !c.keep_states && off) {
        ++compared;
        if (fwd_speedup < 1 || both_speedup < 1) ++below;
        cells.push_back({s, fwd_speedup, both_speedup});
      }
    }
    std::fflush(stdout);
  }
  if (compared > 0) {
    fmt::print("automatic against the official kernel: {} of {} shapes at or above 1.0x in both directions\n",
               compared - below, compared);
    const std::string drawn = ch08::grid::draw_heat_map(cells, o.out, device, common::today());
    fmt::print("{}\n", drawn);
  }
  fmt::print("wrote {}\n", csv.path());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"Kernel::automatic against the official kernel across a grid of shapes (chapter 08)",
               "selective_scan_grid"};
  app.add_option("--grid", o.grid, "Which grid")->check(CLI::IsMember(ch08::grid::grid_names()))->capture_default_str();
  std::vector<std::string> shape_specs;
  app.add_option("--shape", shape_specs,
                 "Time this shape instead of a grid, written as official-bench takes it: bf16:2,1536,2048,16 "
                 "(repeatable; groups as a fifth size)");
  app.add_option("--official", o.official_csv, "official-bench's CSV for the same shapes, from the same device call")
      ->check(CLI::ExistingFile);
  app.add_option("--dtype", o.dtype, "Only the shapes of this input type")
      ->check(CLI::IsMember({"fp32", "bf16", "fp16"}));
  app.add_flag("--versions", o.versions, "Time every explicit version too (the sweep behind automatic's rule)");
  app.add_flag("--split", o.split,
               "Also time each call's issue on the host and its run on the GPU apart (the GPU kept busy before it)");
  app.add_flag("--list-official", o.list_official,
               "Print official-bench's arguments for the grid, one a line, and exit");
  app.add_option("--redraw", o.redraw_csv, "Draw the heat map of a recorded grid.csv again (no GPU needed)")
      ->check(CLI::ExistingFile);
  app.add_option("--reps", o.repetitions, "Timed calls a measurement (the median is kept)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app.add_option("--out", o.out, "Directory for grid.csv and the heat map")->capture_default_str();
  app.add_option("--seed", o.seed, "Seed of the random inputs")->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  try {
    for (const std::string& spec : shape_specs) o.shapes.push_back(ch08::grid::parse_shape(spec));
  } catch (const std::invalid_argument& e) {
    std::cerr << "selective_scan_grid: " << e.what() << "\n";
    return 2;
  }
  try {
    return run(o);
  } catch (const std::exception& e) {
    std::cerr << "selective_scan_grid: " << e.what() << "\n";
    return 1;
  }
}

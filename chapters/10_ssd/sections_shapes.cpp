// Chapter 10's last section: where the chunk size and the shape move the times. Version 2's
// forward against its chunk size (section [3]'s trade, measured), and version 3 against the
// official Triton kernels across a grid of shapes, drawn as a heat map.
#include "device_ssd.hpp"
#include "kernel_timer.hpp"
#include "official_ssd.hpp"
#include "sections.hpp"
#include "speed_heat_map.hpp"

#include "plot.hpp"
#include "timing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace ch10 {
namespace {

constexpr ssd::DataType kBf16 = ssd::DataType::bfloat16;

// Version 2's bf16 forward at chunks of 16 to 512 on a 2.7B model's layer and a 130M model's;
// beside them, version 3 (chunks of 64) and the official kernels (chunks of 256) as points.
void chunk_sweep(common::Notebook& nb, const std::map<std::string, OfficialSsdTime>& official,
                 common::GpuTimer& timer) {
  const std::vector<std::int64_t> chunks = {16, 32, 64, 128, 256, 512};
  const std::vector<BenchShape> bench = bench_shapes(true);
  const BenchShape shapes[] = {bench[0], bench[1]};  // section [5]'s first two: bf16 2.7B layer, 130M
  const char* names[] = {"2.7B layer", "130M"};
  const char* colours[] = {"#7570b3", "#1b9e77"};  // a shape's line and marks in one colour
  common::Figure figure;
  figure.name = "time_vs_chunk", figure.title = "bf16 forward against the chunk size";
  figure.x_label = "chunk size (positions)", figure.y_label = "ms", figure.log_x = figure.log_y = true;
  // The y range fitted to the marks, with a margin, rather than stretched to whole decades.
  figure.settings = {"set logscale x 2",    "set format x '%g'",
                     "set xrange [12:700]", "set xtics (16, 32, 64, 128, 256, 512)",
                     "set autoscale yfix",  "set offsets 0, 0, graph 0.08, graph 0.08",
                     "set format y '%g'",   "set ytics (0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100)"};
  figure.width = 900;
  std::vector<std::vector<std::string>> rows(chunks.size());
  for (std::size_t i = 0; i < chunks.size(); ++i) rows[i] = {fmt::format("{}", chunks[i])};
  for (int k = 0; k < 2; ++k) {
    const ProblemSpec spec = shapes[k].problem();
    common::Series v2{
        fmt::format("version 2, {}", names[k]), {}, {}, fmt::format("linespoints lw 2 pt 7 lc rgb '{}'", colours[k])};
    for (std::size_t i = 0; i < chunks.size(); ++i) {
      const double t = time_gpu_forward(spec, kBf16, ssd::Kernel::chunked, chunks[i], timer).median_ms;
      v2.x.push_back(double(chunks[i])), v2.y.push_back(t);
      rows[i].push_back(ms(t));
    }
    figure.series.push_back(v2);
    const double v3 = time_gpu_forward(spec, kBf16, ssd::Kernel::fused, 64, timer).median_ms;
    figure.series.push_back({fmt::format("version 3, {}", names[k]),
                             {64},
                             {v3},
                             fmt::format("points pt 5 ps 1.6 lc rgb '{}'", colours[k])});
    if (const auto o = official.find(shapes[k].key()); o != official.end())
      figure.series.push_back({fmt::format("official kernels, {}", names[k]),
                               {256},
                               {o->second.fwd_kernels_ms},
                               fmt::format("points pt 9 ps 1.8 lc rgb '{}'", colours[k])});
  }
  nb.text(
      "Version 2's forward, bf16, against its chunk size (its products fp32 SGEMM on the CUDA cores, its chunk "
      "states passed by a thread a state element), on a 2.7B model's layer (1, 2048, 80×64, 128) and a 130M "
      "model's (8, 2048, 24×64, 128); timed as section [5] times. Small chunks make small products and more chunk "
      "states to write, pass and read back; large ones spend the quadratic form's FLOPs. The figure adds version 3 "
      "(chunks of 64, fused, on the tensor cores) and the official kernels (chunks of 256, their own GPU time).");
  nb.table({"chunk", "v2 2.7B layer", "v2 130M"}, rows);
  nb.figure(figure);
}

// Version 3's forward and forward + backward on every shape of grid_shapes(), against the
// official kernels' own GPU time; the ratios as a table and a heat map.
void speed_grid(common::Notebook& nb, const std::map<std::string, OfficialSsdTime>& official, common::GpuTimer& timer,
                KernelTimer& kernel_timer) {
  std::vector<GridSpeed> cells;
  std::vector<std::vector<std::string>> rows;
  int kernels_forward = 0, kernels_forward_backward = 0;  // shapes at least as fast, our kernels alone
  for (const BenchShape& shape : grid_shapes()) {
    const ProblemSpec spec = shape.problem();
    const double fwd = time_gpu_forward(spec, kBf16, ssd::Kernel::fused, 64, timer).median_ms;
    const double fwd_bwd = time_gpu_forward_backward(spec, kBf16, ssd::Kernel::fused, timer).median_ms;
    const double fwd_alone = time_gpu_forward(spec, kBf16, ssd::Kernel::fused, 64, kernel_timer).median_ms;
    const double fwd_bwd_alone = time_gpu_forward_backward(spec, kBf16, ssd::Kernel::fused, kernel_timer).median_ms;
    const auto o = official.find(shape.key());
    const bool timed = o != official.end();
    GridSpeed cell{shape};
    double alone_forward = 0, alone_forward_backward = 0;
    if (timed) {
      const OfficialSsdTime& t = o->second;
      cell.forward = t.fwd_kernels_ms / fwd, cell.forward_backward = t.fwd_bwd_kernels_ms / fwd_bwd;
      cell.call_forward = t.fwd_ms / fwd, cell.call_forward_backward = t.fwd_bwd_ms / fwd_bwd;
      alone_forward = t.fwd_kernels_ms / fwd_alone, alone_forward_backward = t.fwd_bwd_kernels_ms / fwd_bwd_alone;
      kernels_forward += alone_forward >= 1.0, kernels_forward_backward += alone_forward_backward >= 1.0;
    }
    const auto ratio = [&](double r) { return timed ? fmt::format("{:.2f}", r) : std::string("-"); };
    rows.push_back({fmt::format("({}, {}, {})", shape.batch, shape.seqlen, shape.heads), ms(fwd),
                    timed ? ms(o->second.fwd_kernels_ms) : "-", ratio(cell.forward), ratio(alone_forward),
                    ratio(cell.call_forward), ms(fwd_bwd), timed ? ms(o->second.fwd_bwd_kernels_ms) : "-",
                    ratio(cell.forward_backward), ratio(alone_forward_backward), ratio(cell.call_forward_backward)});
    cells.push_back(cell);
  }
  nb.text(
      "Version 3 against the official kernels' own GPU time on a grid of shapes: bf16, 64 channels a head, 128 "
      "states, one group, D, z, dt_bias and softplus on; (batch, seqlen, heads) as the rows say. ratio: the "
      "official kernels' time ÷ ours (events around our call), above 1 where ours is faster; alone: the same "
      "against our kernels' own durations, as the official column is timed; call: the official call's time "
      "(events around the Python call, what a PyTorch caller waits) ÷ ours, timed the same way around the C++ "
      "call.");
  nb.table({"(batch, seqlen, heads)", "v3 fwd", "off. fwd", "ratio", "alone", "call", "v3 f+b", "off. f+b", "ratio",
            "alone", "call"},
           rows);
  const auto timed = std::count_if(cells.begin(), cells.end(), [](const GridSpeed& c) { return c.forward > 0; });
  if (timed == 0) return nb.text("No --official times for the grid: no ratios, no heat map.");
  const auto at_least = [&](double GridSpeed::*ratio, double bound) {
    return std::count_if(cells.begin(), cells.end(), [&](const GridSpeed& c) { return c.*ratio >= bound; });
  };
  nb.text(fmt::format(
      "Of {} shapes: ours at least as fast on {} forwards and {} forwards + backwards, at least twice as fast on "
      "{} and {}.",
      timed, at_least(&GridSpeed::forward, 1.0), at_least(&GridSpeed::forward_backward, 1.0),
      at_least(&GridSpeed::forward, 2.0), at_least(&GridSpeed::forward_backward, 2.0)));
  nb.text(
      fmt::format("Our kernels alone, as the official kernels are timed: at least as fast on {} forwards and {} "
                  "forwards + backwards.",
                  kernels_forward, kernels_forward_backward));
  nb.text(fmt::format(
      "Against the official call's time: at least as fast on {} forwards and {} forwards + backwards, at least twice "
      "as fast on {} and {}.",
      at_least(&GridSpeed::call_forward, 1.0), at_least(&GridSpeed::call_forward_backward, 1.0),
      at_least(&GridSpeed::call_forward, 2.0), at_least(&GridSpeed::call_forward_backward, 2.0)));
  nb.text(draw_speed_heat_map(cells, nb.out_dir(), fmt::format("{}, {}", nb.device_name(), nb.date())));
}

}  // namespace

void section_across_shapes(common::Notebook& nb, const std::string& official_csv) {
  nb.section("Across chunk sizes and shapes");
  if (!nb.options().bench)
    return nb.text(
        "With --bench: version 2's time against its chunk size, and version 3 against the official "
        "kernels on a grid of shapes (a heat map).");
  if (!nb.gpu()) return nb.gpu_skip("the chunk sweep and the grid");
  const auto official =
      official_csv.empty() ? std::map<std::string, OfficialSsdTime>{} : read_official_ssd_csv(official_csv);
  common::GpuTimer timer({3, 10, true});
  KernelTimer kernel_timer({3, 10, true});
  chunk_sweep(nb, official, timer);
  speed_grid(nb, official, timer, kernel_timer);
}

}  // namespace ch10

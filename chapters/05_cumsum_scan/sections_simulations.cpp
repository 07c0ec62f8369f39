// Chapter 05's CPU simulations of the parallel scans, step by step: Hillis-Steele, Blelloch's
// up-sweep and down-sweep, and the single-pass scan's decoupled look-back.
#include "reference.hpp"
#include "scan_simulation.hpp"
#include "sections.hpp"

#include <fmt/format.h>

#include <string>
#include <vector>

namespace ch05 {

using common::Figure;
using common::Series;

// ---- [2] ---------------------------------------------------------------------------------------
namespace {

std::string range_cell(double v) { return scan::held_range(v); }

// Draws one state per row (row 0 at the top), a label per element saying which inputs it holds,
// and arrows from the elements each new value was made of.
struct Arrow {
  double x0, y0, x1, y1;
  std::string colour;
};

Figure dependency_figure(const std::string& name, const std::string& title,
                         const std::vector<std::vector<double>>& states, const std::vector<std::string>& row_names,
                         const std::vector<Arrow>& arrows) {
  const std::size_t n = states.front().size();
  Figure f{name, title, "element j", "", false, false, {}, {}};
  // Rows far enough apart for labels that read at the book's scale (the figure is shown at its
  // own width): 56 px a row, plus the title and the axis.
  f.height = 160 + 56 * static_cast<int>(states.size());
  Series nodes{"", {}, {}, "points pt 7 ps 0.9 lc rgb '#444444'"};
  std::string ytics = "set ytics (";
  for (std::size_t r = 0; r < states.size(); ++r) {
    for (std::size_t j = 0; j < n; ++j) {
      nodes.x.push_back(static_cast<double>(j));
      nodes.y.push_back(-static_cast<double>(r));
      f.settings.push_back(fmt::format("set label '{}' at {},{} center font ',10' boxed front",
                                       scan::held_range(states[r][j]), j, -static_cast<double>(r) + 0.3));
    }
    ytics += fmt::format("{}'{}' {}", r ? ", " : "", row_names[r], -static_cast<double>(r));
  }
  f.series.push_back(nodes);
  f.settings.push_back("set style textbox opaque noborder margins 0.5,0.5");  // arrows pass behind the labels
  f.settings.push_back(ytics + ")");
  f.settings.push_back("unset key");
  f.settings.push_back("set grid noxtics noytics");
  f.settings.push_back(fmt::format("set xrange [-0.8:{}]", n - 0.2));
  f.settings.push_back(fmt::format("set yrange [{}:0.7]", -static_cast<double>(states.size()) + 0.5));
  f.settings.push_back(fmt::format("set xtics 0,1,{}", n - 1));
  for (const Arrow& a : arrows)
    f.settings.push_back(fmt::format("set arrow from {},{} to {},{} head filled size 0.12,20 lw 1.2 lc rgb '{}' back",
                                     a.x0, a.y0 - 0.08, a.x1, a.y1 + 0.08, a.colour));
  return f;
}

}  // namespace

void section_hillis_steele(Notebook& nb) {
  nb.section("Hillis-Steele, step by step (CPU simulation, 16 elements)");
  nb.text(
      "In step s every element j >= 2^s adds the element 2^s places to its left (j - 2^s, reading the\n"
      "values from before the step). After step s, element j holds x_{j-2^(s+1)+1} + ... + x_j.\n"
      "log2(N) steps; every step keeps all N elements busy: about N log2 N additions in all.");
  const auto states = scan::hillis_steele_trace(kExample);
  for (std::size_t s = 0; s < states.size(); ++s)
    nb.text(
        fmt::format("{:<12}{}", s == 0 ? "input" : fmt::format("offset {}", 1 << (s - 1)), row_of(states[s], number)));
  nb.check(
      "the last step = the sequential scan (16 elements)",
      common::compare(states.back(),
                      scan::inclusive_scan_reference(std::vector<float>(kExample.begin(), kExample.end())), {0, 0}));

  nb.text("The same steps on x_j = 2^j: the binary digits of each value say which inputs it holds.");
  const auto traced = scan::hillis_steele_trace(scan::power_of_two_input(16));
  std::vector<std::string> row_names;
  std::vector<Arrow> arrows;
  for (std::size_t s = 0; s < traced.size(); ++s) {
    row_names.push_back(s == 0 ? "input" : fmt::format("offset {}", 1 << (s - 1)));
    nb.text(fmt::format("{:<12}{}", row_names.back(), row_of(traced[s], range_cell, 7)));
    if (s == 0) continue;
    const std::size_t offset = std::size_t(1) << (s - 1);
    for (std::size_t j = 0; j < 16; ++j) {
      const double y0 = -static_cast<double>(s - 1), y1 = -static_cast<double>(s);
      arrows.push_back({double(j), y0, double(j), y1, "#bbbbbb"});
      if (j >= offset) arrows.push_back({double(j - offset), y0, double(j), y1, "#1f77b4"});
    }
  }
  Figure figure = dependency_figure("hillis_steele", "Hillis-Steele: each element adds the one 2^s places to its left",
                                    traced, row_names, arrows);
  figure.markup = true;  // 2^s
  nb.figure(figure, false);
  std::size_t additions = 0;
  for (std::size_t offset = 1; offset < 16; offset *= 2) additions += 16 - offset;
  nb.value("additions for N = 16", fmt::format("{} (the sequential loop: 15)", additions));
}

// ---- [3] ---------------------------------------------------------------------------------------
void section_blelloch(Notebook& nb) {
  nb.section("Blelloch's up-sweep and down-sweep, step by step (CPU simulation, 16 elements)");
  nb.text(
      "Up-sweep: a reduction tree; at stride d the right element of each pair adds the left one.\n"
      "Clear the root, then down-sweep: each left child takes its parent's value (the sum of\n"
      "everything before the pair), each right child that plus the old left child. The result is\n"
      "the exclusive scan; 2(N-1) additions and moves in 2 log2 N levels: work-efficient.");
  const auto steps = scan::blelloch_trace(kExample);
  for (const auto& step : steps) nb.text(fmt::format("{:<22}{}", step.what, row_of(step.state, number)));
  const auto inclusive = scan::inclusive_scan_reference(std::vector<float>(kExample.begin(), kExample.end()));
  std::vector<double> exclusive(kExample.size(), 0.0);
  for (std::size_t j = 1; j < kExample.size(); ++j) exclusive[j] = inclusive[j - 1];
  nb.check("the last step = the exclusive scan (16 elements)", common::compare(steps.back().state, exclusive, {0, 0}));

  nb.text("On x_j = 2^j (which inputs each element holds; ∅ = nothing, the identity):");
  const auto traced = scan::blelloch_trace(scan::power_of_two_input(16));
  std::vector<std::vector<double>> states;
  std::vector<std::string> row_names;
  std::vector<Arrow> arrows;
  for (std::size_t r = 0; r < traced.size(); ++r) {
    const auto& step = traced[r];
    states.push_back(step.state);
    row_names.push_back(r == 0             ? "input"
                        : step.stride == 0 ? "clear root"
                                           : fmt::format("{} {}", step.up ? "up" : "down", step.stride));
    nb.text(fmt::format("{:<22}{}", step.what, row_of(step.state, range_cell, 7)));
    if (r == 0) continue;
    const double y0 = -static_cast<double>(r - 1), y1 = -static_cast<double>(r);
    std::vector<bool> touched(16, false);
    if (step.stride == 0) {
      arrows.push_back({15, y0, 15, y1, "#d62728"});
      touched[15] = true;
    }
    for (std::size_t i = 0; step.stride > 0 && step.stride * (2 * i + 2) <= 16; ++i) {
      const double left = double(step.stride * (2 * i + 1) - 1), right = double(step.stride * (2 * i + 2) - 1);
      touched[std::size_t(left)] = touched[std::size_t(right)] = true;
      arrows.push_back({right, y0, right, y1, "#1f77b4"});
      arrows.push_back({left, y0, right, y1, "#1f77b4"});
      if (!step.up) arrows.push_back({right, y0, left, y1, "#ff7f0e"});
    }
    for (std::size_t j = 0; j < 16; ++j)
      if (!touched[j]) arrows.push_back({double(j), y0, double(j), y1, "#dddddd"});
  }
  nb.figure(dependency_figure("blelloch", "Blelloch: up-sweep (a reduction tree), then down-sweep (prefixes)", states,
                              row_names, arrows),
            false);

  nb.text(
      "Shared memory has 32 banks (word address mod 32). The first warp of an up-sweep level reads\n"
      "tree[d(2t+1)-1] for t = 0..31: at stride d that address steps by 2d, so several threads hit\n"
      "the same bank and wait for each other. One spare word after every 32 (index i -> i + i/32)\n"
      "spreads them. Worst accesses per bank for a 1024-element tile:");
  std::vector<std::vector<std::string>> rows;
  for (std::size_t stride = 1; stride < 1024; stride *= 2)
    rows.push_back({std::to_string(stride), std::to_string(scan::up_sweep_conflict_degree(1024, stride, false)),
                    std::to_string(scan::up_sweep_conflict_degree(1024, stride, true))});
  nb.table({"stride d", "unpadded: n-way", "padded: n-way"}, rows);
}

// ---- [4] ---------------------------------------------------------------------------------------
namespace {

const char* phase_mark(scan::TilePhase p) {
  switch (p) {
    case scan::TilePhase::not_started: return ".";
    case scan::TilePhase::reducing: return "r";
    case scan::TilePhase::looking_back: return "A";
    case scan::TilePhase::done: return "P";
  }
  return "?";
}

}  // namespace

void section_look_back(Notebook& nb, const Options& o) {
  nb.section("The single-pass scan's tile states (CPU simulation of decoupled look-back)");
  nb.text(
      fmt::format("{} tiles, {} blocks resident at a time, each tile claimed in order. A tile reads and sums its\n"
                  "elements (r), publishes its sum with flag A (aggregate), then looks back over its predecessors,\n"
                  "adding their values, until one has flag P (inclusive prefix); it then publishes its own P.\n"
                  "A tile that meets a predecessor with nothing published yet (.) or still reducing (r) waits.",
                  o.tiles, o.resident_blocks));
  std::vector<double> tile_sums(o.tiles);
  const auto x = scan::integer_input(std::size_t(o.tiles) * 8, nb.options().seed);
  for (int t = 0; t < o.tiles; ++t) {
    double sum = 0;
    for (int i = 0; i < 8; ++i) sum += x[std::size_t(t) * 8 + i];
    tile_sums[t] = sum;
  }
  const auto sim = scan::simulate_decoupled_look_back(tile_sums, o.resident_blocks, nb.options().seed);
  std::vector<std::string> header{"step"};
  for (int t = 0; t < o.tiles; ++t) header.push_back(std::to_string(t));
  std::vector<std::vector<std::string>> rows;
  Series reducing{"reading and reducing", {}, {}, "points pt 5 ps 1.6 lc rgb '#bbbbbb'"};
  Series looking{"aggregate published, looking back", {}, {}, "points pt 5 ps 1.6 lc rgb '#ff7f0e'"};
  Series done{"inclusive prefix published", {}, {}, "points pt 5 ps 1.6 lc rgb '#2ca02c'"};
  for (std::size_t step = 0; step < sim.phases.size(); ++step) {
    std::vector<std::string> row{std::to_string(step)};
    for (int t = 0; t < o.tiles; ++t) {
      const auto p = sim.phases[step][t];
      row.push_back(phase_mark(p));
      Series* s = p == scan::TilePhase::reducing       ? &reducing
                  : p == scan::TilePhase::looking_back ? &looking
                  : p == scan::TilePhase::done         ? &done
                                                       : nullptr;
      if (s) {
        s->x.push_back(static_cast<double>(step));
        s->y.push_back(t);
      }
    }
    rows.push_back(row);
  }
  nb.table(header, rows);
  for (const auto& e : sim.events) nb.text(e);
  std::vector<double> expected(o.tiles, 0.0);
  for (int t = 1; t < o.tiles; ++t) expected[t] = expected[t - 1] + tile_sums[t - 1];
  nb.check("every tile's look-back found the sum of the tiles before it",
           common::compare(sim.exclusive_prefix, expected, {0, 0}));
  Figure f{"look_back",
           "Decoupled look-back: the state of each tile, step by step",
           "time step",
           "tile",
           false,
           false,
           {reducing, looking, done},
           {fmt::format("set yrange [-0.7:{}]", o.tiles - 0.3), "set ytics 0,1",
            fmt::format("set xrange [-0.7:{}]", sim.phases.size() - 0.3)}};
  nb.figure(f, false);
}

}  // namespace ch05

#include "speed_heat_map.hpp"

#include "plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <utility>

namespace ch10 {

std::string draw_speed_heat_map(const std::vector<GridSpeed>& cells, const std::string& dir,
                                const std::string& subtitle) {
  // The axes: each distinct (batch, heads) a row, in order of their product; each seqlen a column.
  using Row = std::pair<std::int64_t, int>;
  std::vector<Row> rows;
  std::vector<std::int64_t> columns;
  for (const GridSpeed& c : cells) {
    if (c.forward <= 0 || c.forward_backward <= 0) continue;
    const Row row{c.shape.batch, c.shape.heads};
    if (std::find(rows.begin(), rows.end(), row) == rows.end()) rows.push_back(row);
    if (std::find(columns.begin(), columns.end(), c.shape.seqlen) == columns.end()) columns.push_back(c.shape.seqlen);
  }
  if (rows.empty()) return "heat map: no shape of the grid has the official kernels' times to compare with";
  std::sort(rows.begin(), rows.end(), [](Row a, Row b) { return a.first * a.second < b.first * b.second; });
  std::sort(columns.begin(), columns.end());
  const auto position = [](const auto& list, const auto& value) {
    return std::find(list.begin(), list.end(), value) - list.begin();
  };

  // Two gnuplot data blocks (index 0 the forward, 1 forward + backward) of "column row ratio".
  std::ofstream data(dir + "/speed_grid.dat");
  data << "# the official kernels' time / ours, " << subtitle << "\n";
  for (int panel = 0; panel < 2; ++panel) {
    data << (panel ? "\n\n# forward + backward" : "# forward") << ": seqlen column, batch x heads row, ratio\n";
    for (const GridSpeed& c : cells)
      if (c.forward > 0 && c.forward_backward > 0)
        data << position(columns, c.shape.seqlen) << " " << position(rows, Row{c.shape.batch, c.shape.heads}) << " "
             << fmt::format("{:.3f}", panel ? c.forward_backward : c.forward) << "\n";
  }
  data.close();

  std::string xtics, ytics;
  for (std::size_t i = 0; i < columns.size(); ++i) xtics += fmt::format("{}'{}' {}", i ? ", " : "", columns[i], i);
  for (std::size_t i = 0; i < rows.size(); ++i)
    ytics += fmt::format("{}'{} × {}' {}", i ? ", " : "", rows[i].first, rows[i].second, i);
  std::ofstream script(dir + "/speed_grid.gp");
  script << "# ours against the official kernels across shapes -- `gnuplot speed_grid.gp` in this directory\n"
         << "set terminal svg size 1100,480 dynamic font 'DejaVu Sans,12'\n"
         << "set output 'speed_grid.svg'\n"
         // noenhanced: the device's name holds underscores (sm_90) that enhanced text sets as subscripts.
         << "set multiplot layout 1,2 title 'The official kernels'' time ÷ ours (" << subtitle
         << ")' noenhanced\n"
         // The colour of log2(ratio): red where the official kernels are faster, blue where ours are.
         << "set logscale cb 2\nset cbrange [0.25:4]\n"
         << "set palette defined (-2 '#b2182b', 0 '#f7f7f7', 2 '#2166ac')\n"
         << "set xtics (" << xtics << ")\nset ytics (" << ytics << ")\n"
         << "set xrange [-0.5:" << columns.size() - 0.5 << "]\nset yrange [-0.5:" << rows.size() - 0.5 << "]\n"
         << "set xlabel 'seqlen'\nset ylabel 'batch × heads'\nset tics nomirror\nunset key\n";
  for (int panel = 0; panel < 2; ++panel)
    script << "set title '" << (panel ? "forward + backward" : "forward") << "'\n"
           << "plot 'speed_grid.dat' index " << panel
           << " using 1:2:(0.5):(0.5):3 with boxxy fillstyle solid 1.0 noborder fillcolor palette, '' index " << panel
           << " using 1:2:(sprintf('%.2f', $3)) with labels font ',10'\n";
  script << "unset multiplot\n";
  script.close();
  if (!common::gnuplot_available())
    return "heat map: wrote speed_grid.gp and speed_grid.dat (gnuplot is not installed: not drawn)";
  if (const std::string failure = common::run_gnuplot(dir, "speed_grid.gp"); !failure.empty())
    return "heat map: " + failure;
  return "figure speed_grid: the official kernels' time ÷ ours across the grid (speed_grid.svg)";
}

}  // namespace ch10

#include "heat_map.hpp"

#include "plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>

namespace ch08::grid {

std::string draw_heat_map(const std::vector<HeatCell>& all, const std::string& dir, const std::string& device,
                          const std::string& date) {
  std::vector<HeatCell> cells;
  for (const HeatCell& c : all)
    if (c.shape.dstate == 16 && c.shape.groups == 1 && c.shape.z && c.shape.D && c.shape.delta_bias) cells.push_back(c);
  if (cells.empty()) return "heat map: no shape of the channels x seqlen plane was timed against the official kernel";
  // Rows: (batch, dim) in order of channels; columns: seqlen.
  std::vector<std::pair<std::int64_t, std::int64_t>> rows;
  std::vector<std::int64_t> columns;
  for (const HeatCell& c : cells) {
    if (std::find(rows.begin(), rows.end(), std::pair{c.shape.batch, c.shape.dim}) == rows.end())
      rows.push_back({c.shape.batch, c.shape.dim});
    if (std::find(columns.begin(), columns.end(), c.shape.seqlen) == columns.end()) columns.push_back(c.shape.seqlen);
  }
  std::sort(rows.begin(), rows.end(), [](auto a, auto b) { return a.first * a.second < b.first * b.second; });
  std::sort(columns.begin(), columns.end());
  const auto index = [](const auto& list, const auto& value) {
    return int(std::find(list.begin(), list.end(), value) - list.begin());
  };

  // One gnuplot index a panel, "column row speedup": forward and forward + backward of each type
  // timed, in the order fp32, bf16, fp16.
  std::vector<std::string> types;
  for (const char* type : {"fp32", "bf16", "fp16"})
    if (std::any_of(cells.begin(), cells.end(), [&](const HeatCell& c) { return c.shape.dtype() == type; }))
      types.push_back(type);
  const int panels = 2 * int(types.size());
  const auto panel_name = [&](int p) { return types[p / 2] + (p % 2 == 0 ? ", forward" : ", forward + backward"); };
  std::ofstream data(dir + "/grid_speedup.dat");
  data << "# speedup of Kernel::automatic over the official kernel, " << device << ", " << date << "\n";
  for (int p = 0; p < panels; ++p) {
    if (p > 0) data << "\n\n";
    data << "# " << panel_name(p) << ": seqlen index, channels index, speedup\n";
    for (const HeatCell& c : cells) {
      if (c.shape.dtype() != types[p / 2]) continue;
      const double speedup = p % 2 == 0 ? c.forward_speedup : c.forward_backward_speedup;
      data << index(columns, c.shape.seqlen) << " " << index(rows, std::pair{c.shape.batch, c.shape.dim}) << " "
           << fmt::format("{:.3f}", speedup) << "\n";
    }
  }
  data.close();

  std::string xtics, ytics;
  for (std::size_t i = 0; i < columns.size(); ++i) xtics += fmt::format("{}'{}' {}", i ? ", " : "", columns[i], i);
  for (std::size_t i = 0; i < rows.size(); ++i)
    ytics += fmt::format("{}'{}x{}' {}", i ? ", " : "", rows[i].first, rows[i].second, i);
  std::ofstream script(dir + "/grid_speedup.gp");
  script
      << "# automatic's speedup over the official kernel -- run `gnuplot grid_speedup.gp` in this directory\n"
      << "set terminal svg size 1100," << 410 * types.size() << " dynamic font 'DejaVu Sans,12'\n"
      << "set output 'grid_speedup.svg'\n"
      << "set multiplot layout " << types.size() << ",2 title 'Speedup of Kernel::automatic over the official kernel ("
      << device << ", " << date << "; 16 states, z, D, delta\\_bias on)'\n"
      << "set logscale cb 2\nset cbrange [0.25:4]\n"
      << "set palette defined (-2 '#b2182b', 0 '#f7f7f7', 2 '#2166ac')\n"  // log2 of the range: red below 1, blue above
      << "set xtics (" << xtics << ")\nset ytics (" << ytics << ")\n"
      << "set xrange [-0.5:" << columns.size() - 0.5 << "]\nset yrange [-0.5:" << rows.size() - 0.5 << "]\n"
      << "set xlabel 'seqlen'\nset ylabel 'batch x dim'\nset tics nomirror\nunset key\n";
  for (int p = 0; p < panels; ++p)
    script << "set title '" << panel_name(p) << "'\n"
           << "plot 'grid_speedup.dat' index " << p
           << " using 1:2:(0.5):(0.5):3 with boxxy fillstyle solid 1.0 noborder fillcolor palette, '' index " << p
           << " using 1:2:(sprintf('%.2f', $3)) with labels font ',10'\n";
  script << "unset multiplot\n";
  script.close();
  if (!common::gnuplot_available())
    return "heat map: wrote " + dir + "/grid_speedup.gp and .dat (gnuplot is not installed: not drawn)";
  if (const std::string failure = common::run_gnuplot(dir, "grid_speedup.gp"); !failure.empty())
    return "heat map: " + failure;
  return "heat map: " + dir + "/grid_speedup.svg";
}

}  // namespace ch08::grid

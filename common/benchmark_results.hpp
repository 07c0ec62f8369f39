// A benchmark's results as they are measured: every timing becomes a row of the CSV, a point
// of its implementation's curve in the figure and a cell of the table the program prints.
#pragma once

#include "plot.hpp"
#include "results_csv.hpp"
#include "stats.hpp"

#include <fmt/format.h>

#include <optional>
#include <string>
#include <vector>

namespace common {

// Where a timing was taken and what it moved.
struct BenchmarkPoint {
  double x = 0;                         // its place on the figure's x axis
  std::vector<std::string> size_cells;  // the CSV's columns between the implementation and the times
  double bytes = 0;                     // bytes moved; 0 leaves out the bandwidth columns
  double copy_gbps = 0;                 // a copy's GB/s in the same run; 0: not measured (yet)
};

class BenchmarkResults {
 public:
  // What the figure's y axis and the table's cells show, and the table's decimals.
  enum class Shown { median_ms, gb_per_s };

  BenchmarkResults(ResultsCsv& csv, Shown shown, int decimals) : csv_(csv), shown_(shown), decimals_(decimals) {}

  // One timing. The CSV row is
  //   implementation, size_cells..., median_ms, min_ms, max_ms [, bytes, gb_per_s, pct_of_copy] [, extra_cells...]
  // (the bandwidth columns when the point moved bytes; pct_of_copy empty until a copy was
  // measured). The point goes on the curve `series` (the implementation's name unless given).
  // Returns the table's cell.
  std::string record(const std::string& implementation, const BenchmarkPoint& at, const TimingStats& t,
                     const std::vector<std::string>& extra_cells = {}, const std::string& series = "") {
    std::vector<std::string> row{implementation};
    row.insert(row.end(), at.size_cells.begin(), at.size_cells.end());
    row.insert(row.end(),
               {fmt::format("{:.5f}", t.median_ms), fmt::format("{:.5f}", t.min_ms), fmt::format("{:.5f}", t.max_ms)});
    const double gbps = at.bytes > 0 ? gigabytes_per_second(at.bytes, t.median_ms) : 0;
    if (at.bytes > 0)
      row.insert(row.end(), {fmt::format("{:.0f}", at.bytes), fmt::format("{:.2f}", gbps),
                             at.copy_gbps > 0 ? fmt::format("{:.2f}", 100 * gbps / at.copy_gbps) : ""});
    row.insert(row.end(), extra_cells.begin(), extra_cells.end());
    csv_.row(row);

    const double shown = shown_ == Shown::gb_per_s ? gbps : t.median_ms;
    Series& curve = curve_named(series.empty() ? implementation : series);
    curve.x.push_back(at.x);
    curve.y.push_back(shown);
    return fmt::format("{:.{}f}", shown, decimals_);
  }

  // One curve per implementation (or series name), in the order first recorded.
  const std::vector<Series>& series() const { return curves_; }

  // The shown value of a curve at x, if it was measured there.
  std::optional<double> shown_at(const std::string& series, double x) const {
    for (const auto& curve : curves_)
      if (curve.title == series)
        for (std::size_t i = 0; i < curve.x.size(); ++i)
          if (curve.x[i] == x) return curve.y[i];
    return std::nullopt;
  }

 private:
  Series& curve_named(const std::string& title) {
    for (auto& curve : curves_)
      if (curve.title == title) return curve;
    return curves_.emplace_back(Series{title, {}, {}, "linespoints lw 2"});
  }

  ResultsCsv& csv_;
  Shown shown_;
  int decimals_;
  std::vector<Series> curves_;
};

}  // namespace common

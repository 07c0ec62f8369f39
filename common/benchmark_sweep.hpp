// The benchmark table of a chapter: one loop over its sizes, a row per size, a column per
// kernel version.
//
// At every point (a size) the sweep makes a row of the table:
//   label cells | CPU | copy | one cell per version | cells of the row's end
// - the CPU column (when the chapter times the CPU): the CPU's timing, "-" past its size limit;
// - without a GPU the row ends there; with one, the point's GPU problem is set up, then
// - the copy column (when asked for): a device-to-device cudaMemcpy of half the point's bytes
//   (so that read + write = the point's bytes), timed the way the versions are; its GB/s
//   becomes the point's copy_gbps, the roof every version's pct_of_copy is measured against;
// - each version: "-" where --kernel left it out or it cannot take the point, else it is
//   poisoned, run and checked before timing and checked again after (CheckedTiming): "wrong"
//   when the first check failed, else its cell as BenchmarkResults shows it (GB/s or ms);
// - the row's end (when asked for): cells the chapter computes from the versions' timings, or
//   of a timing of its own that it records (record(): a roof other than the copy, say).
// Every timing is a row of the CSV and a point of its implementation's curve.
//
// The chapter keeps what is its own: the points (sizes, bytes), the problem and its check in
// the Steps' callbacks, the text, the summary it draws from results(), and the figure.
//
//   common::BenchmarkSweep sweep(nb, {.size_columns = {"n"}, .label_headers = {"N"}, ...});  // creates the CSV
//   common::BenchmarkSweep::Steps steps;
//   steps.prepare = [&](std::size_t point) { x = input(sizes[point]); };  // the point's data, in the chapter's
//   steps.run = [&](std::size_t version) { problem->run(kKernels[version].id); };  // variables; and so on
//   sweep.run(points, versions, steps);  // the loop; prints the table and the CSV's path
//   sweep.report("the timed versions are exact before and after timing");
//   ... a summary line from sweep.results().shown_at(...) ...
//   figure.series = sweep.series();  // then nb.figure(figure)
// (chapters/05_cumsum_scan/sections_gpu.cpp's section_benchmark is a whole example.)
#pragma once

#include "benchmark_results.hpp"
#include "checked_timing.hpp"
#include "notebook.hpp"
#include "results_csv.hpp"
#include "timing.hpp"

#include <cstddef>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace common {

// A size as a row's label shows it: "2^20" for a power of two, else the number.
std::string power_of_two_label(std::size_t n);

// One size of the sweep: a row of the table.
struct SweepPoint {
  std::vector<std::string> label;  // the row's first cells, e.g. {"2^20"}
  std::string where;               // the size in CheckedTiming's lines: "N = 1048576"
  // The figure's x, the CSV's size cells, the bytes moved; its copy_gbps where a copy was
  // measured beforehand (without a copy column: the copy column sets it).
  BenchmarkPoint at;
};

// One kernel version: a column of the table.
struct SweepVersion {
  int id;                   // its number, as --kernel selects it
  std::string column;       // the table's header, e.g. "v3"
  std::string name;         // the CSV's implementation and (unless `series` is given) its curve, e.g. "3 warp_scan"
  std::string what;         // in CheckedTiming's lines, before " at <where>": "version 3"
  std::string series = {};  // its curve, when several versions share a name
};

// What the sweep writes and prints, apart from the timings.
struct SweepLayout {
  std::string csv_name = "bench.csv";  // in the output directory
  // The CSV's columns between the implementation and the times (BenchmarkPoint::size_cells).
  std::vector<std::string> size_columns;
  bool bandwidth = true;  // the points move bytes: the CSV has bytes, gb_per_s and pct_of_copy
  // The CSV's last columns, filled by Steps::csv_cells.
  std::vector<std::string> extra_columns = {};
  BenchmarkResults::Shown shown = BenchmarkResults::Shown::gb_per_s;  // in the table and the figure
  int decimals = 0;                                                   // of the table's cells
  std::vector<std::string> label_headers;                             // over SweepPoint::label, e.g. {"N"}
  std::string cpu_header = "CPU";                 // over the CPU column (when Steps::time_cpu is given)
  std::string cpu_name = {};                      // the CPU's implementation in the CSV and the figure
  bool copy = false;                              // a copy column
  std::vector<std::string> row_end_headers = {};  // over Steps::row_end's cells
  std::string caption = {};                       // a line printed before the table; "" for none
  TimingOptions timing = {};                      // the versions' and the copy's
};

class BenchmarkSweep {
 public:
  // Steps::csv_cells is asked for the CPU's and the copy's cells with these in place of a version.
  static constexpr std::size_t kCpu = std::numeric_limits<std::size_t>::max();
  static constexpr std::size_t kCopy = kCpu - 1;

  // The chapter's work, by point index (into the points given to run) and version index (into
  // the versions). The callbacks keep the point's data in the chapter's own variables.
  struct Steps {
    // First at every point: its host data (e.g. the input the CPU and the GPU problem share).
    std::function<void(std::size_t point)> prepare = {};
    // The CPU column, when given: the CPU's timing at the point, or nothing past its limit ("-").
    std::function<std::optional<TimingStats>(std::size_t point)> time_cpu = {};
    // With a GPU, before the copy and the versions: the point's GPU problem and what its check expects.
    std::function<void(std::size_t point)> prepare_gpu = {};
    // Whether a version can take the point; not given: every version takes every point.
    std::function<bool(std::size_t point, std::size_t version)> takes = {};
    // The bytes a version moves at the point, where versions move different amounts (its GB/s
    // and pct_of_copy count them); not given: the point's bytes for every version.
    std::function<double(std::size_t point, std::size_t version)> bytes = {};
    // CheckedTiming's steps for a version at the current point: fill its outputs with NaN,
    // enqueue it, and compare its output with the expected one ("" when right, else what is wrong).
    std::function<void(std::size_t version)> poison;
    std::function<void(std::size_t version)> run;
    std::function<std::string(std::size_t version)> check;
    // The CSV's extra cells (SweepLayout::extra_columns) of a timing of a version, kCpu or kCopy.
    std::function<std::vector<std::string>(std::size_t version, const TimingStats& t)> csv_cells = {};
    // With a GPU, the row's last cells (SweepLayout::row_end_headers), from the versions'
    // timings at the point (nothing for a version shown as "-" or "wrong").
    std::function<std::vector<std::string>(std::size_t point, const std::vector<std::optional<TimingStats>>& timings)>
        row_end = {};
  };

  // Creates the CSV (its device: the GPU's name, or "cpu only").
  BenchmarkSweep(Notebook& nb, SweepLayout layout);

  // The loop, then the caption, the table and the CSV's path. Without a GPU the rows hold the
  // CPU column alone (a line says the GPU timings were skipped); with neither a GPU nor a CPU
  // column only that line prints, so a GPU-only benchmark may return before making the sweep.
  void run(const std::vector<SweepPoint>& points, const std::vector<SweepVersion>& versions, const Steps& steps);

  // With a GPU, CheckedTiming's check line "<claim>: W of R runs wrong (<detail>)"; without one
  // nothing was timed, and it prints nothing.
  bool report(const std::string& claim, const std::string& detail = "");

  // Every timing so far, e.g. for a summary line: results().shown_at("3 warp_scan", x).
  const BenchmarkResults& results() const { return results_; }

  // A timing the chapter takes itself at a point (in Steps::row_end, say: a roof other than the
  // copy), recorded as a version's is: a row of the CSV and a point of its curve. Returns its cell.
  std::string record(const std::string& implementation, const BenchmarkPoint& at, const TimingStats& t,
                     const std::vector<std::string>& extra_cells = {}) {
    return results_.record(implementation, at, t, extra_cells);
  }

  // The figure's curves, in the order first recorded; the copy drawn as a black dashed line.
  std::vector<Series> series() const;

  // The copy's name in the CSV and the figure.
  static constexpr const char* kCopyName = "copy (cudaMemcpy D2D)";

 private:
  std::vector<std::string> gpu_cells(const SweepPoint& point, std::size_t index,
                                     const std::vector<SweepVersion>& versions, const Steps& steps);
  std::vector<std::string> csv_cells(const Steps& steps, std::size_t version, const TimingStats& t) const;

  Notebook& nb_;
  SweepLayout layout_;
  ResultsCsv csv_;
  BenchmarkResults results_;
  std::optional<CheckedTiming> timing_;  // with a GPU
  std::optional<GpuTimer> copy_timer_;   // with a GPU and a copy column
};

}  // namespace common

#include "benchmark_sweep.hpp"

#include "gpu.hpp"

#include <fmt/format.h>

#include <cmath>

namespace common {

std::string power_of_two_label(std::size_t n) {
  const int e = static_cast<int>(std::log2(static_cast<double>(n)));
  if (std::size_t(1) << e == n) return fmt::format("2^{}", e);
  return std::to_string(n);
}

BenchmarkSweep::BenchmarkSweep(Notebook& nb, SweepLayout layout)
    : nb_(nb),
      layout_(std::move(layout)),
      csv_(nb.out_dir() + "/" + layout_.csv_name, nb.gpu() ? gpu_status().device.name : "cpu only", nb.date(),
           [&] {
             std::vector<std::string> columns{"implementation"};
             columns.insert(columns.end(), layout_.size_columns.begin(), layout_.size_columns.end());
             columns.insert(columns.end(), {"median_ms", "min_ms", "max_ms"});
             if (layout_.bandwidth) columns.insert(columns.end(), {"bytes", "gb_per_s", "pct_of_copy"});
             columns.insert(columns.end(), layout_.extra_columns.begin(), layout_.extra_columns.end());
             return columns;
           }()),
      results_(csv_, layout_.shown, layout_.decimals) {
  if (!nb.gpu()) return;
  timing_.emplace(nb, layout_.timing);
  if (layout_.copy) copy_timer_.emplace(layout_.timing);
}

void BenchmarkSweep::run(const std::vector<SweepPoint>& points, const std::vector<SweepVersion>& versions,
                         const Steps& steps) {
  const bool gpu = nb_.gpu();
  if (!gpu && !steps.time_cpu) return nb_.gpu_skip("the GPU timings");
  if (!gpu) nb_.gpu_skip("the GPU timings (the CPU column still runs)");

  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const SweepPoint& point = points[i];
    std::vector<std::string> row = point.label;
    if (steps.prepare) steps.prepare(i);
    if (steps.time_cpu) {
      const auto t = steps.time_cpu(i);
      row.push_back(t ? results_.record(layout_.cpu_name, point.at, *t, csv_cells(steps, kCpu, *t)) : "-");
    }
    if (gpu) {
      const auto cells = gpu_cells(point, i, versions, steps);
      row.insert(row.end(), cells.begin(), cells.end());
    }
    rows.push_back(row);
  }

  std::vector<std::string> header = layout_.label_headers;
  if (steps.time_cpu) header.push_back(layout_.cpu_header);
  if (gpu) {
    if (layout_.copy) header.push_back("copy");
    for (const auto& v : versions) header.push_back(v.column);
    header.insert(header.end(), layout_.row_end_headers.begin(), layout_.row_end_headers.end());
  }
  if (!layout_.caption.empty()) nb_.text(layout_.caption);
  nb_.table(header, rows);
  nb_.value("results", csv_.path());
}

// The copy's, the versions' and the row end's cells of one point.
std::vector<std::string> BenchmarkSweep::gpu_cells(const SweepPoint& point, std::size_t index,
                                                   const std::vector<SweepVersion>& versions, const Steps& steps) {
  BenchmarkPoint at = point.at;
  std::vector<std::string> cells;
  if (steps.prepare_gpu) steps.prepare_gpu(index);
  if (layout_.copy) {
    // Half the point's bytes copied: read once and written once, they are the bytes it moves.
    const auto t = time_device_copy(static_cast<std::size_t>(at.bytes / 2), *copy_timer_);
    at.copy_gbps = gigabytes_per_second(at.bytes, t.median_ms);
    cells.push_back(results_.record(kCopyName, at, t, csv_cells(steps, kCopy, t)));
  }
  std::vector<std::optional<TimingStats>> timings(versions.size());
  for (std::size_t v = 0; v < versions.size(); ++v) {
    const SweepVersion& version = versions[v];
    if (!kernel_selected(nb_.options(), version.id) || (steps.takes && !steps.takes(index, v))) {
      cells.push_back("-");
      continue;
    }
    timings[v] = timing_->time(
        fmt::format("{} at {}", version.what, point.where), [&] { steps.poison(v); }, [&] { steps.run(v); },
        [&] { return steps.check(v); });
    if (!timings[v]) {
      cells.push_back("wrong");
      continue;
    }
    BenchmarkPoint version_at = at;
    if (steps.bytes) version_at.bytes = steps.bytes(index, v);
    cells.push_back(
        results_.record(version.name, version_at, *timings[v], csv_cells(steps, v, *timings[v]), version.series));
  }
  if (steps.row_end) {
    const auto end = steps.row_end(index, timings);
    cells.insert(cells.end(), end.begin(), end.end());
  }
  return cells;
}

std::vector<std::string> BenchmarkSweep::csv_cells(const Steps& steps, std::size_t version,
                                                   const TimingStats& t) const {
  return steps.csv_cells ? steps.csv_cells(version, t) : std::vector<std::string>{};
}

bool BenchmarkSweep::report(const std::string& claim, const std::string& detail) {
  return timing_ ? timing_->report(claim, detail) : true;
}

std::vector<Series> BenchmarkSweep::series() const {
  std::vector<Series> curves = results_.series();
  for (Series& s : curves)
    if (s.title == kCopyName) s.style = "lines lw 3 dt 2 lc rgb 'black'";
  return curves;
}

}  // namespace common

// Chapter 06's section that tunes version 5: every tile shape of kWindowTileShapes at N = 2^28,
// against the copy and CUB.
#include "checked_timing.hpp"
#include "ema_kernels.hpp"
#include "gpu.hpp"
#include "gpu_ema.hpp"
#include "reference.hpp"
#include "results_csv.hpp"
#include "sections.hpp"
#include "timing.hpp"

#include <fmt/format.h>

#include <string>
#include <vector>

namespace ch06 {

// ---- [8] ---------------------------------------------------------------------------------------
void section_tile_sweep(Notebook& nb) {
  const std::size_t n = std::size_t(1) << 28;
  nb.section("Tuning version 5: every tile shape at N = 2^28");
  nb.text(
      fmt::format("Version 5 built for each tile shape of kWindowTileShapes (ema_kernels.hpp), raced against\n"
                  "the copy and CUB (version 6) in the same run, L2 flushed before every repetition. The\n"
                  "chapter's runs use kWindowTile = {} × {}.",
                  ema::kWindowTile.threads, ema::kWindowTile.items_per_thread));
  if (!nb.gpu()) return nb.gpu_skip("the tile sweep");
  const auto p = ema::random_problem(1, n, kDecayLo, kDecayHi, nb.options().seed + n);
  const auto expected = ema::recurrence_reference(p);
  ema::GpuEma problem(p);
  const double bytes = 12.0 * double(n);
  common::GpuTimer timer({2, 15, true});
  common::CheckedTiming timing(nb, {2, 15, true});
  const double copy_gbps = common::gigabytes_per_second(bytes, common::time_device_copy(6 * n, timer).median_ms);
  const auto poison = [&] { problem.poison_output(); };
  const auto check = [&] { return common::failure(common::compare(problem.output(), expected, kFp32)); };
  const auto cub = timing.time(
      "version 6 at N = 2^28", poison, [&] { problem.run(ema::Kernel::cub_device_scan); }, check);
  const double cub_gbps = cub ? common::gigabytes_per_second(bytes, cub->median_ms) : 0;
  common::ResultsCsv csv(nb.out_dir() + "/tile_sweep.csv", common::gpu_status().device.name, nb.date(),
                         {"threads", "items_per_thread", "tile", "median_ms", "gb_per_s", "pct_of_copy", "pct_of_cub"});
  std::vector<std::vector<std::string>> rows;
  for (const auto& shape : ema::kWindowTileShapes) {
    const bool chosen =
        shape.threads == ema::kWindowTile.threads && shape.items_per_thread == ema::kWindowTile.items_per_thread;
    std::vector<std::string> row{fmt::format("{} × {}", shape.threads, shape.items_per_thread),
                                 std::to_string(shape.size())};
    const auto t = timing.time(
        fmt::format("version 5, tile {} × {}", shape.threads, shape.items_per_thread), poison,
        [&] { problem.run_window(shape); }, check);
    if (!t) {
      rows.push_back({row[0], row[1], "wrong", "-", "-", chosen ? "kWindowTile" : ""});
      continue;
    }
    const double gbps = common::gigabytes_per_second(bytes, t->median_ms);
    const std::string of_cub = cub_gbps > 0 ? fmt::format("{:.1f}", 100 * gbps / cub_gbps) : "-";
    csv.row({std::to_string(shape.threads), std::to_string(shape.items_per_thread), std::to_string(shape.size()),
             fmt::format("{:.5f}", t->median_ms), fmt::format("{:.2f}", gbps),
             fmt::format("{:.2f}", 100 * gbps / copy_gbps), cub_gbps > 0 ? of_cub : ""});
    rows.push_back({row[0], row[1], fmt::format("{:.0f}", gbps), fmt::format("{:.1f}", 100 * gbps / copy_gbps), of_cub,
                    chosen ? "kWindowTile" : ""});
  }
  nb.value("copy", fmt::format("{:.0f} GB/s", copy_gbps));
  nb.value("CUB (version 6)", cub ? fmt::format("{:.0f} GB/s = {:.1f}% of copy", cub_gbps, 100 * cub_gbps / copy_gbps)
                                  : std::string("wrong"));
  nb.table({"threads × items", "tile", "GB/s", "% of copy", "% of CUB", ""}, rows);
  nb.value("results", csv.path());
  timing.report("every tile shape matches fp64 before and after timing");
}

}  // namespace ch06

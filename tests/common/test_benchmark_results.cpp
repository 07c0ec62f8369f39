#include <catch2/catch.hpp>

#include "benchmark_results.hpp"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("BenchmarkResults writes a CSV row, a curve point and a table cell per timing") {
  const auto dir = std::filesystem::temp_directory_path() / "book_test_benchmark_results";
  const std::string path = (dir / "bench.csv").string();
  std::vector<std::string> cells;
  {
    common::ResultsCsv csv(
        path, "a GPU", "2026-01-01",
        {"implementation", "n", "median_ms", "min_ms", "max_ms", "bytes", "gb_per_s", "pct_of_copy"});
    common::BenchmarkResults results(csv, common::BenchmarkResults::Shown::gb_per_s, 0);
    common::BenchmarkPoint at{1024, {"1024"}, 2e6};
    cells.push_back(results.record("kernel", at, {1.0, 0.5, 2.0, 5}));  // 2e6 bytes in 1 ms: 2 GB/s
    at.copy_gbps = 4;
    cells.push_back(results.record("copy", at, {0.5, 0.5, 0.5, 5}));
    at = {2048, {"2048"}, 4e6, 8};
    cells.push_back(results.record("kernel", at, {1.0, 1.0, 1.0, 5}));

    // Curves in the order first recorded, whatever their names' alphabetical order.
    REQUIRE(results.series().size() == 2);
    CHECK(results.series()[0].title == "kernel");
    CHECK(results.series()[0].x == std::vector<double>{1024, 2048});
    CHECK(results.series()[0].y == std::vector<double>{2, 4});
    CHECK(results.series()[1].title == "copy");
    CHECK(results.shown_at("kernel", 2048) == 4);
    CHECK_FALSE(results.shown_at("copy", 2048).has_value());
  }
  CHECK(cells == std::vector<std::string>{"2", "4", "4"});
  const auto lines = lines_of(path);
  REQUIRE(lines.size() == 4);
  CHECK(lines[1] == "a GPU,2026-01-01,kernel,1024,1.00000,0.50000,2.00000,2000000,2.00,");  // no copy measured yet
  CHECK(lines[2] == "a GPU,2026-01-01,copy,1024,0.50000,0.50000,0.50000,2000000,4.00,100.00");
  CHECK(lines[3] == "a GPU,2026-01-01,kernel,2048,1.00000,1.00000,1.00000,4000000,4.00,50.00");
  std::filesystem::remove_all(dir);
}

TEST_CASE("BenchmarkResults without bytes shows times, and puts extra cells and a separate curve name last") {
  const auto dir = std::filesystem::temp_directory_path() / "book_test_benchmark_results_times";
  const std::string path = (dir / "bench.csv").string();
  {
    common::ResultsCsv csv(path, "cpu only", "2026-01-01",
                           {"implementation", "rule", "n", "median_ms", "min_ms", "max_ms", "note"});
    common::BenchmarkResults results(csv, common::BenchmarkResults::Shown::median_ms, 3);
    CHECK(results.record("kernel 1", {100, {"ZOH", "100"}}, {0.12345, 0.1, 0.2, 3}, {"x"}, "kernel 1, ZOH") == "0.123");
    REQUIRE(results.series().size() == 1);
    CHECK(results.series()[0].title == "kernel 1, ZOH");
    CHECK(results.series()[0].y == std::vector<double>{0.12345});
  }
  const auto lines = lines_of(path);
  REQUIRE(lines.size() == 2);
  CHECK(lines[1] == "cpu only,2026-01-01,kernel 1,ZOH,100,0.12345,0.10000,0.20000,x");
  std::filesystem::remove_all(dir);
}

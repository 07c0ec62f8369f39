#include <catch2/catch.hpp>

#include "plot.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

common::Figure two_series() {
  // Built in one expression: assigning the short strings one by one trips a false
  // -Wrestrict warning in GCC 12's std::string.
  return common::Figure{.name = "decay",
                        .title = "decay",
                        .x_label = "t",
                        .y_label = "|h|",
                        .log_y = true,
                        .series = {{"fast", {0, 1, 2}, {1, 0.5, 0.25}}, {"zero", {0, 1}, {1, 0}}},
                        .settings = {}};
}

}  // namespace

TEST_CASE("a figure always leaves its data and its gnuplot script behind") {
  const std::string dir = "plot_test_out";
  std::filesystem::remove_all(dir);
  const auto drawn = common::draw_figure(two_series(), dir);
  const std::string data = slurp(drawn.data_path);
  CHECK_THAT(data, Catch::Contains("1 0.5"));
  CHECK_THAT(data, Catch::Contains("1 NaN"));  // 0 cannot go on a log axis: written as NaN, skipped
  const std::string script = slurp(drawn.script_path);
  CHECK_THAT(script, Catch::Contains("set output 'decay.svg'"));
  CHECK_THAT(script, Catch::Contains("index 1"));
  if (common::gnuplot_available()) {
    CHECK(drawn.drawn);
    CHECK(std::filesystem::file_size(drawn.svg_path) > 0);
    CHECK_FALSE(drawn.ascii.empty());
  } else {
    CHECK_FALSE(drawn.drawn);
    CHECK_THAT(drawn.why_not, Catch::Contains("gnuplot"));
  }
}

TEST_CASE("a malformed figure is refused") {
  auto f = two_series();
  f.name = "bad name";
  CHECK_THROWS(common::draw_figure(f, "plot_test_out"));
  f = two_series();
  f.series[0].y.pop_back();
  CHECK_THROWS(common::draw_figure(f, "plot_test_out"));
}

// The heat map of chapter 10's grid: which cells it plots where, and what it says when it has
// none. It draws with gnuplot where installed; the data and the script are checked either way.
#include "speed_heat_map.hpp"

#include <catch2/catch.hpp>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The data lines of each gnuplot block (index 0, 1, ...), comments left out.
std::vector<std::vector<std::string>> data_blocks(const std::string& text) {
  std::vector<std::vector<std::string>> blocks(1);
  std::istringstream lines(text);
  int blank_run = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) {
      if (++blank_run == 2) blocks.emplace_back();
      continue;
    }
    blank_run = 0;
    if (line[0] != '#') blocks.back().push_back(line);
  }
  return blocks;
}

ch10::GridSpeed cell(std::int64_t batch, std::int64_t seqlen, int heads, double forward, double forward_backward) {
  return {{"bf16", batch, seqlen, heads, 64, 128, 1, 256}, forward, forward_backward};
}

}  // namespace

TEST_CASE("the grid's heat map places each timed shape by its row and length and leaves the untimed out") {
  const auto dir = std::filesystem::temp_directory_path() / ("ch10_heat_map_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  // Rows come out in order of batch × heads (8 × 24 after 1 × 80), columns in order of length.
  const std::vector<ch10::GridSpeed> cells = {cell(8, 1024, 24, 2.0, 1.25), cell(1, 1024, 80, 0.5, 0.75),
                                              cell(8, 512, 24, 1.5, 0.8), cell(1, 512, 80, 0, 0)};
  const std::string said = ch10::draw_speed_heat_map(cells, dir.string(), "a test");
  CHECK((said.rfind("figure speed_grid", 0) == 0 || said.find("not installed") != std::string::npos));

  const auto blocks = data_blocks(read_text(dir / "speed_grid.dat"));
  REQUIRE(blocks.size() == 2);
  CHECK(blocks[0] == std::vector<std::string>{"1 1 2.000", "1 0 0.500", "0 1 1.500"});
  CHECK(blocks[1] == std::vector<std::string>{"1 1 1.250", "1 0 0.750", "0 1 0.800"});
  const std::string script = read_text(dir / "speed_grid.gp");
  CHECK(script.find("set xtics ('512' 0, '1024' 1)") != std::string::npos);
  CHECK(script.find("set ytics ('1 × 80' 0, '8 × 24' 1)") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("the grid's heat map says so and writes nothing when no shape has the official times") {
  const auto dir = std::filesystem::temp_directory_path() / ("ch10_heat_map_empty_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string said = ch10::draw_speed_heat_map({cell(1, 512, 24, 0, 0)}, dir.string(), "a test");
  CHECK(said.find("no shape of the grid") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "speed_grid.dat"));
  std::filesystem::remove_all(dir);
}

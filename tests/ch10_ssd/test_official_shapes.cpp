// The shapes chapter 10's benchmark and grid time against the official kernels: the grid's plane,
// and that scripts/gpu-suite asks triton_bench.py for every one of them (else the program would
// print '-' where a ratio belongs).
#include "official_ssd.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>

namespace {

// The shapes gpu-suite's time_official_ch10 times (its list ch10_official_specs), one spec each.
std::set<std::string> gpu_suite_specs() {
  std::ifstream in(std::string(BOOK_SOURCE_DIR) + "/scripts/gpu-suite");
  REQUIRE(in);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto begin = text.find("ch10_official_specs=("), end = text.find("\n)", begin);
  REQUIRE(begin != std::string::npos);
  std::istringstream words(text.substr(begin, end - begin));
  std::set<std::string> specs;
  for (std::string word; words >> word;)
    if (word.rfind("bf16:", 0) == 0 || word.rfind("fp32:", 0) == 0) specs.insert(word);
  return specs;
}

}  // namespace

TEST_CASE("the grid's shapes: rows by batch x heads and seqlen 512 to 16384 up to the long shape's size") {
  const auto shapes = ch10::grid_shapes();
  REQUIRE(shapes.size() == 35);  // six rows of six seqlens, less (16, 16384, 80)
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const auto& s = shapes[i];
    CHECK(s.dtype == "bf16");
    CHECK(s.batch * s.heads * s.seqlen <= 8 * 80 * 16384);
    CHECK(s.head_dim == 64);
    CHECK(s.dstate == 128);
    if (i > 0 && shapes[i - 1].batch == s.batch && shapes[i - 1].heads == s.heads)
      CHECK(shapes[i - 1].seqlen * 2 == s.seqlen);
    else if (i > 0)
      CHECK(shapes[i - 1].batch * shapes[i - 1].heads < s.batch * s.heads);
  }
}

TEST_CASE("scripts/gpu-suite times the official kernels on every shape the benchmark and the grid time") {
  const std::set<std::string> timed = gpu_suite_specs();
  for (const auto& shape : ch10::bench_shapes(true)) CHECK(timed.count(shape.spec()) == 1);
  for (const auto& shape : ch10::grid_shapes()) CHECK(timed.count(shape.spec()) == 1);
}

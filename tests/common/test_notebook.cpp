// The notebook's output as a reader sees it: the header waits for the first line, and long
// prose and check lines are broken at spaces to fit the book's output box (150 columns).
#include "notebook_capture.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <string>

namespace {

std::size_t widest_line(const std::string& text) {
  std::istringstream lines(text);
  std::size_t widest = 0;
  for (std::string line; std::getline(lines, line);) {
    std::size_t columns = 0;
    for (char c : line) columns += (c & 0xC0) != 0x80;
    widest = std::max(widest, columns);
  }
  return widest;
}

std::string words(int count) {
  std::string text;
  for (int i = 0; i < count; ++i) {
    if (i > 0) text += ' ';
    text += "word";
    text += std::to_string(i);
  }
  return text;
}

}  // namespace

TEST_CASE("notebook: a long check line breaks after its subject, and keeps every word") {
  const std::string what =
      "version 7 (a rather long kernel name), N = 1, 2, 31, 33, 1000, 1023, 1025, 4095, 4097, 65537";
  const std::string detail = "max abs err 0.00e+00, max rel err 0.00e+00; tol atol 0e+00 + rtol 0e+00·|ref|";
  const auto p = book_test::run_notebook([&](common::Notebook& nb) { nb.check(what, true, detail); });
  CHECK(widest_line(p.text) <= 150);
  CHECK(p.text.find("    ✔ " + what + ":\n      " + detail + "\n") != std::string::npos);
}

TEST_CASE("notebook: a short check line stays one line") {
  const auto p = book_test::run_notebook([](common::Notebook& nb) { nb.check("short", false, "detail"); });
  CHECK(p.text.find("    ✘ short: detail\n") != std::string::npos);
  CHECK(p.exit_code == 1);
}

TEST_CASE("notebook: prose wider than the output box is broken at spaces, indented after the first line") {
  const std::string long_line = words(60);
  const auto p = book_test::run_notebook([&](common::Notebook& nb) { nb.text(long_line); });
  CHECK(widest_line(p.text) <= 150);
  std::string joined = p.text;
  for (std::size_t at; (at = joined.find("\n        ")) != std::string::npos;) joined.replace(at, 9, 1, ' ');
  CHECK(joined.find("    " + long_line + "\n") != std::string::npos);
}

TEST_CASE("notebook: the header comes with the first line of output, not before") {
  const auto p = book_test::run_notebook([&](common::Notebook& nb) { nb.section("first"); });
  CHECK(p.text.rfind("━━ Test", 0) == 0);
  CHECK(p.text.find("  build    CUDA architectures ") != std::string::npos);
  CHECK(p.text.find("[1] first") > p.text.find("  output   "));
}

// The padded rows the GPU tests use for slices of longer tensors (DeviceProblem's row_padding):
// laid out and read back on the CPU, so that a failing GPU test is the kernel's, not the layout's.
#include "device_problem.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>
#include <vector>

TEST_CASE("padded rows: each row lands at its pitch, the gaps NaN, and reads back whole") {
  const std::vector<double> rows = {1, 2, 3, 4, 5, 6};  // two rows of 3
  const std::vector<double> padded = ch08::pad_rows(rows, 3, 5);
  REQUIRE(padded.size() == 10);
  CHECK(padded[0] == 1);
  CHECK(padded[2] == 3);
  CHECK(std::isnan(padded[3]));
  CHECK(std::isnan(padded[4]));
  CHECK(padded[5] == 4);
  CHECK(padded[7] == 6);
  CHECK(std::isnan(padded[9]));
  CHECK(ch08::unpad_rows(padded, 3, 5) == rows);
  CHECK(ch08::pad_rows(rows, 3, 3) == rows);  // no padding: the same numbers
}

TEST_CASE("padded rows: a written gap is caught when read back") {
  std::vector<double> padded = ch08::pad_rows({1, 2, 3, 4, 5, 6}, 3, 5);
  padded[9] = 0.0;  // past the end of the second row
  CHECK_THROWS_AS(ch08::unpad_rows(padded, 3, 5), std::runtime_error);
}

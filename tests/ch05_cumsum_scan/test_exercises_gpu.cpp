// Chapter 05's GPU exercise (exercise 4: version 2's kernel, hillis_steele_kernel.cu). In the
// `exercises` preset the stub runs here, and every case must fail until the reader writes the
// kernel. Whole-number inputs make every order of additions exact (reference.hpp), so the
// kernel must match the fp64 scan exactly.
#include "ch05_test_support.hpp"
#include "device_buffer.hpp"
#include "gpu_scan.hpp"
#include "gpu_test.hpp"
#include "reference.hpp"

#include <cmath>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace {

// The input's first elements, for the failure message (the seed gives the rest).
std::string head_of(const std::vector<float>& x) {
  std::string s;
  for (std::size_t i = 0; i < x.size() && i < 8; ++i) {
    if (i > 0) s += ' ';
    s += std::to_string(static_cast<int>(x[i]));
  }
  if (x.size() > 8) s += " ...";
  return s;
}

// Runs version 2 on integer_input(n, seed) into an output with kGuard spare elements past n, all
// NaN first; checks the n results against the fp64 scan, and that the spare ones stay unwritten.
constexpr std::size_t kGuard = 1024;
void check_version_2(std::size_t n, std::uint64_t seed) {
  const auto x = scan::integer_input(n, seed);
  const auto expected = scan::inclusive_scan_reference(x);
  common::DeviceBuffer<float> in{std::span<const float>(x)}, out(n + kGuard);
  out.poison();
  scan::ScanWorkspace workspace(n);
  workspace.run(scan::Kernel::hillis_steele, in.data(), out.data(), n);
  const auto all = out.download();
  const std::vector<float> got(all.begin(), all.begin() + n);
  CHECK_CLOSE("scan_hillis_steele, N = " << n << " ("
                                         << (n + scan::kHillisSteeleThreads - 1) / scan::kHillisSteeleThreads
                                         << " tiles of " << scan::kHillisSteeleThreads << "), x = integer_input(N, "
                                         << seed << ") = " << head_of(x),
              common::compare(got, expected, kExact));
  std::size_t written_past_end = 0;
  for (std::size_t i = n; i < all.size(); ++i) written_past_end += !std::isnan(all[i]);
  INFO("scan_hillis_steele, N = " << n << ": elements written past out[N - 1] (they must stay NaN)");
  CHECK(written_past_end == 0);
}

}  // namespace

TEST_CASE("exercise 4: version 2 scans one tile exactly (1 element, around a warp, up to a full block)",
          "[exercise][gpu]") {
  REQUIRE_GPU();
  // An exclusive scan, a missing step (offset 512 matters from element 512 on) or a step that
  // reads a value already updated in the same step all fail here.
  for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(31), std::size_t(32), std::size_t(33),
                        std::size_t(513), std::size_t(1000), std::size_t(1023), std::size_t(1024)})
    check_version_2(n, 400 + n);
}

TEST_CASE("exercise 4: version 2 carries the running total from tile to tile", "[exercise][gpu]") {
  REQUIRE_GPU();
  // One element past a tile, exactly two tiles, a ragged last tile, many tiles: a carry left
  // out, added twice, or taken from the wrong element of the tile fails here.
  for (std::size_t n :
       {std::size_t(1025), std::size_t(2048), std::size_t(2049), std::size_t(3 * 1024 + 5), std::size_t(65537)})
    check_version_2(n, 500 + n);
}

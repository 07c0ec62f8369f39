// Chapter 05's section on the cumulative sum itself: the fp64 reference, and why the checks
// use whole numbers.
#include "benchmark_sweep.hpp"
#include "reference.hpp"
#include "sections.hpp"

#include <fmt/format.h>

#include <string>
#include <vector>

namespace ch05 {

// ---- [1] ---------------------------------------------------------------------------------------
void section_reference(Notebook& nb, const Options& o) {
  nb.section("The cumulative sum, one addition after another (fp64 reference on the CPU)");
  nb.text(
      "y_k = x_0 + x_1 + ... + x_k. The loop carries one running total: step k needs step k-1,\n"
      "a chain of N dependent additions -- the shape of chapter 01's RNN, with + in place of the RNN step.");
  nb.text(fmt::format("example x = {}", row_of(kExample, number)));
  nb.text(fmt::format(
      "        y = {}",
      row_of(scan::inclusive_scan_reference(std::vector<float>(kExample.begin(), kExample.end())), number)));

  nb.text(
      "The inputs of every check: whole numbers in {-3..3}. Every partial sum a scan can form is a sum\n"
      "of neighbours x_a..x_b, a whole number below 2^24 here, which fp32 holds exactly -- so every\n"
      "order of additions gives the exact result, and the checks ask for it (tolerance 0).");
  const std::size_t n = static_cast<std::size_t>(o.check_size);
  const auto x = scan::integer_input(n, nb.options().seed);
  nb.value(fmt::format("largest |y_k| for N = {}", n),
           fmt::format("{:.0f} (limit 2^23 = 8388608)", scan::max_abs_prefix(x)));
  nb.check(fmt::format("the fp32 loop on whole numbers = fp64, N = {}", n),
           common::compare(scan::inclusive_scan_fp32(x), scan::inclusive_scan_reference(x), kExact));

  nb.text(
      "With real inputs (uniform in [0, 1)) fp32 rounds at every step, and the error of the running\n"
      "total grows with N. A parallel scan adds in another order, so it does not reproduce the\n"
      "sequential fp32 result bit for bit either; that is why the checks use whole numbers.");
  std::vector<std::vector<std::string>> rows;
  for (std::size_t m : {std::size_t(1) << 10, std::size_t(1) << 14, std::size_t(1) << 18, std::size_t(1) << 22}) {
    const auto u = scan::uniform_input(m, nb.options().seed);
    const auto c = common::compare(scan::inclusive_scan_fp32(u), scan::inclusive_scan_reference(u), {1.0, 0.0});
    rows.push_back({common::power_of_two_label(m), fmt::format("{:.2e}", c.max_abs_error),
                    fmt::format("{:.2e}", c.max_rel_error)});
  }
  nb.table({"N", "max |fp32 - fp64|", "max rel err"}, rows);
}

}  // namespace ch05

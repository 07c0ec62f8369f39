#include "official_ssd.hpp"

#include "official_times.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <utility>

namespace ch10 {

std::string BenchShape::spec() const {
  std::string s = fmt::format("{}:{},{},{},{},{}", dtype, batch, seqlen, heads, head_dim, dstate);
  if (groups != 1 || chunk != 256) s += fmt::format(",{},{}", groups, chunk);
  return s;
}

std::string BenchShape::key() const {
  std::string s = fmt::format("{} {}x{}x{}x{}x{}", dtype, batch, seqlen, heads, head_dim, dstate);
  if (groups != 1 || chunk != 256) s += fmt::format("x{}x{}", groups, chunk);
  return s;
}

std::string BenchShape::label() const {
  return fmt::format("{} ({}, {}, {}×{}, {}){}", dtype, batch, seqlen, heads, head_dim, dstate,
                     chunk != 256 ? fmt::format(", chunk {}", chunk) : "");
}

ProblemSpec BenchShape::problem() const {
  ProblemSpec spec;
  spec.shape = {batch, seqlen, heads, head_dim, groups, dstate};
  spec.D = DForm::per_head, spec.z = spec.dt_bias = spec.dt_softplus = true;
  return spec;
}

std::vector<BenchShape> bench_shapes(bool all) {
  std::vector<BenchShape> shapes;
  for (const char* dtype : {"bf16", "fp32"}) {
    shapes.push_back({dtype, 1, 2048, 80, 64, 128, 1, 256});
    if (!all) break;
    shapes.push_back({dtype, 8, 2048, 24, 64, 128, 1, 256});
    shapes.push_back({dtype, 8, 16384, 80, 64, 128, 1, 256});
    shapes.push_back({dtype, 16, 8192, 16, 64, 64, 1, 64});
  }
  return shapes;
}

std::vector<BenchShape> grid_shapes() {
  const std::int64_t largest = 8 * 80 * std::int64_t(16384);  // the long shape's
  std::vector<BenchShape> shapes;
  for (const auto& [batch, heads] : {std::pair{1, 24}, {1, 80}, {8, 24}, {4, 80}, {8, 80}, {16, 80}})
    for (std::int64_t seqlen = 512; seqlen <= 16384; seqlen *= 2)
      if (batch * heads * seqlen <= largest) shapes.push_back({"bf16", batch, seqlen, heads, 64, 128, 1, 256});
  return shapes;
}

std::map<std::string, OfficialSsdTime> read_official_ssd_csv(const std::string& path) {
  std::map<std::string, OfficialSsdTime> times;
  ch08::for_each_csv_row(path,
                         "a triton_bench.py ssd row (device,what,dtype,shape,fwd_ms,fwd_bwd_ms,fwd_kernels_ms,"
                         "fwd_bwd_kernels_ms)",
                         [&](const std::vector<std::string>& cells) {
                           if (cells.size() != 8 || cells[1] != "ssd") throw std::invalid_argument("not ssd");
                           times[cells[2] + " " + cells[3]] = {std::stod(cells[4]), std::stod(cells[5]),
                                                               std::stod(cells[6]), std::stod(cells[7]), cells[0]};
                         });
  return times;
}

}  // namespace ch10

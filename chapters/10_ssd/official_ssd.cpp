#include "official_ssd.hpp"

#include "official_times.hpp"

#include <fmt/format.h>

#include <stdexcept>

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

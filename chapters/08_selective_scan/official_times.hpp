// official_times.hpp: the official kernel's times as official-bench prints them (CSV: device,
// dtype, batch, dim, seqlen, dstate, groups, fwd_ms, fwd_bwd_ms), run in the same device call
// as ours; the benchmark (--official) and selective_scan_grid read them.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ch08 {

struct OfficialTime {
  double forward_ms = 0, forward_backward_ms = 0;
  std::string device;
};

// official-bench's name of a shape: "fp32:8,1536,2048,16,1" (dtype fp32, fp16 or bf16; B and C
// variable, D, z, delta_bias and softplus on: the only calls it times).
std::string official_spec(const std::string& dtype, std::int64_t batch, std::int64_t dim, std::int64_t seqlen,
                          int dstate, int groups);

// Calls `row` with the cells of each row of the CSV at `path`, skipping blank lines, '#' comments
// and the "device,..." header. A row that `row` throws on becomes std::runtime_error
// "PATH:LINE: not WHAT: <the line, as printable text>".
void for_each_csv_row(const std::string& path, const std::string& what,
                      const std::function<void(const std::vector<std::string>& cells)>& row);

// The rows of an official-bench CSV keyed by official_spec(); throws std::runtime_error naming
// the line that does not parse.
std::map<std::string, OfficialTime> read_official_csv(const std::string& path);

}  // namespace ch08

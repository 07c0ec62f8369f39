// The official Triton SSD's times (triton_bench.py ssd, timed on the same GPU in the same device
// call), and the shapes chapter 10's benchmark times both on.
#pragma once

#include "ssd_problem.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ch10 {

struct BenchShape {
  std::string dtype;  // "bf16", "fp32"
  std::int64_t batch = 1, seqlen = 1;
  int heads = 1, head_dim = 64, dstate = 128, groups = 1;
  std::int64_t chunk = 256;
  // triton_bench.py's argument, e.g. "bf16:1,2048,80,64,128" (",g,chunk" where not 1 and 256).
  std::string spec() const;
  // Its CSV's dtype and shape columns, e.g. "bf16 1x2048x80x64x128".
  std::string key() const;
  // "bf16 (1, 2048, 80×64, 128)", with ", chunk 64" where not 256.
  std::string label() const;
  // The call both sides time on this shape: D a head, z, dt_bias and softplus on (the Mamba2
  // module's), no initial states or packing.
  ProblemSpec problem() const;
};

// A 2.7B model's layer, a 130M model's, a long sequence and a small chunk, in bf16 and fp32 (the
// shapes the chapter's goal names); without `all`, only the first in bf16.
std::vector<BenchShape> bench_shapes(bool all);

// The heat map's plane, bf16, 64 channels a head, 128 states, one group, chunks of 256: (batch,
// heads) from (1, 24) to (16, 80) against seqlen from 512 to 16384, up to the long shape's
// batch·heads·seqlen. Rows in order of batch·heads, columns of seqlen.
std::vector<BenchShape> grid_shapes();

struct OfficialSsdTime {
  double fwd_ms = 0, fwd_bwd_ms = 0;                  // CUDA events around the Python call
  double fwd_kernels_ms = 0, fwd_bwd_kernels_ms = 0;  // the GPU kernels' own times
  std::string device;
};

// triton_bench.py ssd's rows by key(); throws std::runtime_error naming a line that does not parse.
std::map<std::string, OfficialSsdTime> read_official_ssd_csv(const std::string& path);

}  // namespace ch10

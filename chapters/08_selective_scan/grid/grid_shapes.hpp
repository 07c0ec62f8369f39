// grid_shapes.hpp: the shapes on which Kernel::automatic is held against the official kernel,
// and the official kernel's times for them (official-bench's CSV, timed in the same device call).
#pragma once

#include "official_times.hpp"
#include "selective_scan.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ch08::grid {

struct Shape {
  selective_scan::DataType type = selective_scan::DataType::float32;
  std::int64_t batch = 1, dim = 1, seqlen = 1;
  int dstate = 16, groups = 1;
  bool z = true, D = true, delta_bias = true;  // the official benchmark has all three

  std::int64_t channels() const { return batch * dim; }
  std::string dtype() const;  // "fp32", "bf16", "fp16"
  std::string label() const;  // "fp32 (8, 1536, 2048, 16) g1" with " no z/D/bias" when they are off
  // official-bench's argument for this shape ("fp32:8,1536,2048,16,1"); the official kernel
  // always runs with z, D and delta_bias, so shapes without them share their time.
  std::string official_spec() const;
};

// The grids: "anchors" (the official kernel's six timed shapes), "small" (a handful of quick
// shapes, for the tests), "cut" (few channels, long sequences), "heat" (channels x seqlen at 16
// states: the heat map), each in fp32, bf16 and fp16, "axes" (dstate 1..256, groups 2 and 4, z, D and
// delta_bias off, odd sizes, each changed from a large and a small shape), "states" and
// "many_states" (the axes' two shapes at 1..16 and at 32..256 states) and "full" (heat and axes).
std::vector<Shape> grid_named(const std::string& name);
std::vector<std::string> grid_names();
// A shape written as official-bench takes it, "bf16:2,1536,2048,16" (groups 1) or
// "fp32:1,256,4096,64,2"; throws std::invalid_argument, naming the spec, for anything else.
Shape parse_shape(const std::string& spec);
// The type a grid.csv or an official-bench spec names: "fp32", "bf16" or "fp16"; throws
// std::invalid_argument for anything else.
selective_scan::DataType type_named(const std::string& name);

}  // namespace ch08::grid

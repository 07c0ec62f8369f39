// heat_map.hpp: automatic's speedup over the official kernel on the grid's channels x seqlen
// plane (16 states, one group, z, D and delta_bias on): two panels, forward and forward +
// backward, for each type timed (fp32, bf16, fp16), each cell coloured by its speedup and
// labelled with it, 1.0 in white.
#pragma once

#include "grid_shapes.hpp"

#include <string>
#include <vector>

namespace ch08::grid {

struct HeatCell {
  Shape shape;
  double forward_speedup = 0, forward_backward_speedup = 0;
};

// Writes grid_speedup.dat and grid_speedup.gp into `dir` and draws grid_speedup.svg with
// gnuplot when it is installed; returns a line saying what it did.
std::string draw_heat_map(const std::vector<HeatCell>& cells, const std::string& dir, const std::string& device,
                          const std::string& date);

}  // namespace ch08::grid

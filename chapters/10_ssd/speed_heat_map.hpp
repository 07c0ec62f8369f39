// speed_heat_map.hpp: the grid of chapter 10's last section as a heat map. Each cell is one shape
// of grid_shapes() (rows batch × heads, columns seqlen), coloured and labelled by how many times
// faster ours ran than the official kernels: forward and forward + backward side by side, 1 in white.
#pragma once

#include "official_ssd.hpp"

#include <string>
#include <vector>

namespace ch10 {

struct GridSpeed {
  BenchShape shape;
  double forward = 0, forward_backward = 0;  // the official kernels' time ÷ ours; 0 where not timed
  // The official call's time (events around the Python call: what a PyTorch caller waits) ÷ ours.
  double call_forward = 0, call_forward_backward = 0;
};

// Writes speed_grid.dat and speed_grid.gp into `dir` and, where gnuplot is installed, draws
// speed_grid.svg; returns the line that says which it did (or why it drew nothing).
std::string draw_speed_heat_map(const std::vector<GridSpeed>& cells, const std::string& dir,
                                const std::string& subtitle);

}  // namespace ch10

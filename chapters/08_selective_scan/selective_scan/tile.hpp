// tile.hpp: the two step counts versions 4 and 5 are built around, defined once for every file
// that uses them (staged_rows.cuh, the forwards and the backwards of both versions).
#pragma once

namespace selective_scan::detail {

constexpr int kTile = 32;  // steps in a tile: what a warp stages (version 4) or a ring slot holds (version 5)
constexpr int kGroup = 4;  // steps a thread walks between two reads of B and C (one 16-byte vector of a row)

}  // namespace selective_scan::detail

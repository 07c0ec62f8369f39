// grid_fill.hpp: `count` values scale * N(0, 1) of stream `seed` into `data`, in `type`, drawn on
// the GPU (asynchronously, on the default stream). Value i depends on (seed, i) alone.
#pragma once

#include "selective_scan.hpp"

#include <cstdint>

namespace ch08::grid {

void fill_normal_input(void* data, std::int64_t count, selective_scan::DataType type, std::uint64_t seed, float scale);

}  // namespace ch08::grid

// Inputs made on the GPU itself, for sizes whose fp64 copy would not fit in the host's memory:
// the benchmark's data, not a check's (checks draw theirs on the host, in fp64).
#pragma once

#include "selective_scan.hpp"

#include <cstdint>

namespace ch11 {

// count values of `type` at p, uniform in [lo, hi), from a hash of (seed, index): the same numbers
// whatever the launch.
void fill_uniform(void* p, selective_scan::DataType type, std::int64_t count, std::uint64_t seed, float lo, float hi,
                  cudaStream_t stream = nullptr);

}  // namespace ch11

// Version 2's call as its stages see it: the sizes, the chunking and the padded length.
#pragma once

#include "ssd.hpp"

#include <cstdint>

namespace ssd::detail {

struct Geometry {
  Sizes s;
  std::int64_t Q, chunks, padded;  // chunk length, chunks a row, chunks * Q
  // The numbers of x (and y, z) and of B (and C) at one position.
  __host__ __device__ std::int64_t width() const { return std::int64_t(s.heads) * s.head_dim; }
  __host__ __device__ std::int64_t projection() const { return std::int64_t(s.groups) * s.dstate; }
};

}  // namespace ssd::detail

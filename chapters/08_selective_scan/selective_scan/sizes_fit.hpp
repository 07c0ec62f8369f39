// sizes_fit.hpp: whether the counts a call derives from its sizes and strides fit in 64 bits.
// Every buffer the library indexes or sizes -- the tensors as far as their strides reach, the
// chunk states, the kept states, the workspaces -- is counted in 64-bit elements and bytes; a
// call whose counts would pass 2^63 - 1 bytes is refused (validate()) before anything computes
// them, so that no size wraps.
#pragma once

#include "selective_scan.hpp"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>

namespace selective_scan::detail {

// The product of non-negative factors, or nullopt when it passes 2^63 - 1.
std::optional<std::int64_t> checked_product(std::initializer_list<std::int64_t> factors);

// "" when the product of `factors` elements of `element_bytes` each fits in 2^63 - 1 bytes, else
// "<what> would take more than 2^63 - 1 bytes: <formula> = <factors> <unit>".
std::string product_does_not_fit(const char* what, const char* formula, std::initializer_list<std::int64_t> factors,
                                 std::int64_t element_bytes, const char* unit);

// "" when the counts that the sizes alone make fit (chunk states, kept states, the workspace),
// else one line naming the first product that does not. The sizes must already be in range
// (positive, dstate in [1, kMaxStates]).
std::string sizes_do_not_fit(const Sizes& sizes, bool is_complex);

// One strided dimension of a tensor: its length and its stride in elements, named as the
// message should name them.
struct StridedDimension {
  std::int64_t length, stride;
  const char *length_name, *stride_name;
};
// "" when a tensor whose rows are `row` contiguous elements (named `row_name`), placed along the
// given dimensions, reaches at most 2^63 - 1 bytes at `element_bytes` each; else one line naming
// `what` and the sum that does not fit. Lengths below 1 and negative strides are other checks'
// to report: they give "". A row_name of nullptr: single elements (row 1), not named.
std::string reach_does_not_fit(const char* what, std::initializer_list<StridedDimension> dimensions, std::int64_t row,
                               const char* row_name, std::int64_t element_bytes);

}  // namespace selective_scan::detail

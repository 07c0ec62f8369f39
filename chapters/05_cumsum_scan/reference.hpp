// Chapter 05's CPU side: the inputs, and the fp64 sequential scan every version is checked against.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace scan {

// y_k = x_0 + x_1 + ... + x_k, one addition after another, in fp64.
std::vector<double> inclusive_scan_reference(std::span<const float> x);

// The same loop in fp32: the CPU baseline, and a look at fp32 rounding.
std::vector<float> inclusive_scan_fp32(std::span<const float> x);

// Whole numbers in {-3, ..., 3}, stored as float. Every partial sum any scan forms is the sum
// of a contiguous range x_a..x_b = y_b - y_{a-1}; the generator makes sure that |y_k| < 2^23
// for every k (and throws otherwise), so every such sum is a whole number below 2^24 in
// magnitude, which fp32 holds exactly: every order of additions gives the exact result.
std::vector<float> integer_input(std::size_t n, std::uint64_t seed);
inline constexpr double kExactLimit = 8388608.0;  // 2^23

// Uniform in [0, 1): here the order of additions changes the rounding.
std::vector<float> uniform_input(std::size_t n, std::uint64_t seed);

// Largest |y_k| of the exact prefix sums (fp64), for the statement above.
double max_abs_prefix(std::span<const float> x);

}  // namespace scan

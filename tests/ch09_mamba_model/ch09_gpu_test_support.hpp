// What chapter 09's GPU tests share: fp32 copies on the device of fp64 test data, and back.
#pragma once

#include "ch09_test_support.hpp"
#include "device_buffer.hpp"
#include "gpu_test.hpp"
#include "reference_model.hpp"

#include <random>
#include <span>
#include <vector>

namespace ch09_test {

using ch09::to_double;
using ch09::to_float;

// Values drawn from N(0, scale), rounded to fp32 (so the CPU and the GPU see the same numbers).
inline std::vector<double> random_values(std::size_t count, unsigned seed, double scale = 1.0) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, scale);
  std::vector<double> v(count);
  for (double& x : v) x = static_cast<float>(normal(rng));
  return v;
}

inline common::DeviceBuffer<float> upload(const std::vector<double>& values) {
  const std::vector<float> f = to_float(values);
  return common::DeviceBuffer<float>(std::span<const float>(f));
}
inline common::DeviceBuffer<int> upload(const std::vector<int>& values) {
  return common::DeviceBuffer<int>(std::span<const int>(values));
}
inline common::DeviceBuffer<float> poisoned(std::size_t count) {
  common::DeviceBuffer<float> buffer(count);
  buffer.poison();
  return buffer;
}
inline std::vector<double> download(const common::DeviceBuffer<float>& buffer) { return to_double(buffer.download()); }

}  // namespace ch09_test

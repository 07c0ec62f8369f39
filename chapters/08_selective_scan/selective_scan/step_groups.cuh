// step_groups.cuh: a few consecutive time steps of one variable B or C row, loaded at once.
// Versions 3 and 4 walk time inside one lane, so that lane can read a row's next steps with one
// vector load instead of one load per step.
#pragma once

#include "device_math.cuh"

#include <cstdint>
#include <type_traits>

namespace selective_scan::detail {

template <int kBytes>
using VectorOf = std::conditional_t<kBytes % 16 == 0, uint4, std::conditional_t<kBytes % 8 == 0, uint2, unsigned>>;

// The vector a group of kSteps steps of state type S is loaded as (at most 16 bytes at a time).
template <int kSteps, class S, class Input>
using StepVector = VectorOf<int(sizeof(Input)) * (std::is_same_v<S, float> ? 1 : 2) * kSteps>;

// kSteps steps from p, which the caller has checked to be in range and aligned to StepVector.
template <int kSteps, class S, class Input>
__device__ __forceinline__ void load_aligned_steps(const Input* p, S (&out)[kSteps]) {
  constexpr int kPerStep = std::is_same_v<S, float> ? 1 : 2;
  constexpr int kBytes = int(sizeof(Input)) * kPerStep * kSteps;
  using Vector = StepVector<kSteps, S, Input>;
  static_assert(kBytes % sizeof(Vector) == 0, "a group must be whole vectors");
  Input raw[kPerStep * kSteps];
#pragma unroll
  for (int v = 0; v < kBytes / int(sizeof(Vector)); ++v)
    reinterpret_cast<Vector*>(raw)[v] = __ldg(reinterpret_cast<const Vector*>(p) + v);
#pragma unroll
  for (int i = 0; i < kSteps; ++i) {
    if constexpr (kPerStep == 1)
      out[i] = to_float(raw[i]);
    else
      out[i] = cfloat{to_float(raw[2 * i]), to_float(raw[2 * i + 1])};
  }
}

// Steps t ... t + kSteps - 1 of a row, as fp32 states (complex: (re, im) pairs). Vector loads
// when the whole group is in range and aligned, else one value at a time, with 0 past the end.
template <int kSteps, class S, class Input>
__device__ __forceinline__ void load_steps(const Input* row, std::int64_t t, std::int64_t seqlen, S (&out)[kSteps]) {
  constexpr int kPerStep = std::is_same_v<S, float> ? 1 : 2;
  const Input* p = row + t * kPerStep;
  if (t + kSteps <= seqlen && reinterpret_cast<std::uintptr_t>(p) % sizeof(StepVector<kSteps, S, Input>) == 0) {
    load_aligned_steps<kSteps>(p, out);
  } else {
#pragma unroll
    for (int i = 0; i < kSteps; ++i) out[i] = t + i < seqlen ? load_input_state<S>(row, t + i) : state_zero<S>();
  }
}

}  // namespace selective_scan::detail

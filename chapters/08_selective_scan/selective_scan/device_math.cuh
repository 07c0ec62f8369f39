// device_math.cuh: the arithmetic every version shares -- the state type (float, or a complex
// pair for complex A), conversions from the input type, softplus and silu, and the pair
// operator of the recurrence h = a h_prev + b.
#pragma once

#include "decay.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

namespace selective_scan::detail {

struct cfloat {
  float re, im;
};
__device__ __forceinline__ cfloat operator+(cfloat x, cfloat y) { return {x.re + y.re, x.im + y.im}; }
__device__ __forceinline__ cfloat operator-(cfloat x, cfloat y) { return {x.re - y.re, x.im - y.im}; }
__device__ __forceinline__ cfloat operator*(cfloat x, cfloat y) {
  return {x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re};
}
__device__ __forceinline__ cfloat operator*(float s, cfloat x) { return {s * x.re, s * x.im}; }
__device__ __forceinline__ cfloat conj(cfloat x) { return {x.re, -x.im}; }
__device__ __forceinline__ float conj(float x) { return x; }
__device__ __forceinline__ float real(float x) { return x; }
__device__ __forceinline__ float real(cfloat x) { return x.re; }

// The state h, Abar, B, C and their gradients: float for real A, cfloat for complex A.
template <bool kComplex>
using State = std::conditional_t<kComplex, cfloat, float>;

template <class S>
__device__ __forceinline__ S state_one();
template <>
__device__ __forceinline__ float state_one<float>() {
  return 1.f;
}
template <>
__device__ __forceinline__ cfloat state_one<cfloat>() {
  return {1.f, 0.f};
}
template <class S>
__device__ __forceinline__ S state_zero() {
  return S{};
}

__device__ __forceinline__ float exp_delta_A(float delta, float A) { return decay(delta * A); }
__device__ __forceinline__ cfloat exp_delta_A(float delta, cfloat A) {
  const float magnitude = decay(delta * A.re);
  float s, c;
  sincosf(delta * A.im, &s, &c);
  return {magnitude * c, magnitude * s};
}

// Version 4 keeps A as A2 = (Re A log2(e), Im A) and takes the decay as a power of two
// (decay_exp2 in decay.hpp).
__device__ __forceinline__ float log2_scaled(float A) { return A * 1.44269504f; }
__device__ __forceinline__ cfloat log2_scaled(cfloat A) { return {A.re * 1.44269504f, A.im}; }
// [snippet:decay_by_type]
// The decay a walk takes depends on the type of its inputs and outputs: fp32 keeps decay_exp2,
// which rounds to nearest on average; fp16 and bf16 take the hardware's 2^y alone
// (decay_exp2_fast), whose bias is far below their outputs' rounding. The forward and the
// backward take the same one, so that the backward's recomputed states are the forward's.
template <class Input>
__device__ __forceinline__ float decay_power(float y) {
  if constexpr (std::is_same_v<Input, float>)
    return decay_exp2(y);
  else
    return decay_exp2_fast(y);
}
template <class Input>
__device__ __forceinline__ float exp2_delta_A(float delta, float A2) {
  return decay_power<Input>(delta * A2);
}
// [/snippet:decay_by_type]
template <class Input>
__device__ __forceinline__ cfloat exp2_delta_A(float delta, cfloat A2) {
  const float magnitude = decay_power<Input>(delta * A2.re);
  float s, c;
  sincosf(delta * A2.im, &s, &c);
  return {magnitude * c, magnitude * s};
}

// The output takes 2 Re(C h) for complex A (the conjugate state is implied), C h for real A.
__device__ __forceinline__ float output_part(float x) { return x; }
__device__ __forceinline__ float output_part(cfloat x) { return 2.f * x.re; }

// Reading and writing the input type.
__device__ __forceinline__ float to_float(float x) { return x; }
__device__ __forceinline__ float to_float(__half x) { return __half2float(x); }
__device__ __forceinline__ float to_float(__nv_bfloat16 x) { return __bfloat162float(x); }
template <class T>
__device__ __forceinline__ T from_float(float x);
template <>
__device__ __forceinline__ float from_float<float>(float x) {
  return x;
}
template <>
__device__ __forceinline__ __half from_float<__half>(float x) {
  return __float2half_rn(x);
}
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float x) {
  return __float2bfloat16_rn(x);
}

// A state-sized value stored as fp32 (a float, or a (re, im) pair) at element index i.
template <class S>
__device__ __forceinline__ S load_state(const float* p, std::int64_t i) {
  if constexpr (std::is_same_v<S, float>)
    return p[i];
  else
    return cfloat{p[2 * i], p[2 * i + 1]};
}
template <class S>
__device__ __forceinline__ void store_state(float* p, std::int64_t i, S v) {
  if constexpr (std::is_same_v<S, float>)
    p[i] = v;
  else
    p[2 * i] = v.re, p[2 * i + 1] = v.im;
}
// A variable B or C value of the input type at element index i (complex: a (re, im) pair).
template <class S, class Input>
__device__ __forceinline__ S load_input_state(const Input* p, std::int64_t i) {
  if constexpr (std::is_same_v<S, float>)
    return to_float(p[i]);
  else
    return cfloat{to_float(p[2 * i]), to_float(p[2 * i + 1])};
}

__device__ __forceinline__ float softplus(float x) { return x > 20.f ? x : log1pf(expf(x)); }
// The same with the hardware's exp (one MUFU ex2, a few ulp): version 5's forward takes these once
// per channel and step, where the accurate library calls were a fifth of its instructions. An
// error of a few ulp in delta does not pile up: Abar = exp(delta A) takes it once, not as a bias
// of 1 - Abar, and the gate is applied once per output.
__device__ __forceinline__ float softplus_fast(float x) { return x > 20.f ? x : log1pf(__expf(x)); }
__device__ __forceinline__ float silu_fast(float x) { return __fdividef(x, 1.f + __expf(-x)); }
__device__ __forceinline__ float sigmoid(float x) { return 1.f / (1.f + expf(-x)); }
__device__ __forceinline__ float silu(float x) { return x * sigmoid(x); }
// d silu / dx = sigmoid(x) (1 + x (1 - sigmoid(x)))
__device__ __forceinline__ float silu_derivative(float x) {
  const float s = sigmoid(x);
  return s * (1.f + x * (1.f - s));
}

// The pair (a, b) stands for the map h -> a h + b; composing "first p, then q" gives
// (q.a p.a, q.a p.b + q.b). Associative, with identity (1, 0): the operator of every scan here.
template <class S>
struct Pair {
  S a, b;
};
template <class S>
__device__ __forceinline__ Pair<S> compose(Pair<S> p, Pair<S> q) {
  return {q.a * p.a, q.a * p.b + q.b};
}
template <class S>
struct ComposePairs {
  __device__ __forceinline__ Pair<S> operator()(Pair<S> p, Pair<S> q) const { return compose(p, q); }
};

}  // namespace selective_scan::detail

// The pair operator of the first-order recurrence h_k = a_k h_{k-1} + b_k, usable on the host
// (fp64 references, exercises) and on the device (every kernel).
//
// A pair (a, b) stands for the affine map h -> a h + b. Doing (a1, b1) first and then
// (a2, b2) is the map h -> a2 (a1 h + b1) + b2 = (a1 a2) h + (a2 b1 + b2): that composition is
// the operator. Composition of maps is associative, so the operator is; (1, 0) is the map
// h -> h, its identity.
#pragma once

#ifdef __CUDACC__
#define EMA_HOST_DEVICE __host__ __device__
#else
#define EMA_HOST_DEVICE
#endif

namespace ema {

template <class T>
struct Pair {
  T a;
  T b;
};

// [snippet:combine]
// `first` covers the earlier steps, `second` the later ones; the order matters (the operator
// is associative, not commutative).
template <class T>
EMA_HOST_DEVICE inline Pair<T> combine(Pair<T> first, Pair<T> second) {
  return {first.a * second.a, second.a * first.b + second.b};
}

template <class T>
EMA_HOST_DEVICE inline Pair<T> identity() {
  return {T(1), T(0)};
}

// What the map does to the state before it: h = a·h_before + b.
template <class T>
EMA_HOST_DEVICE inline T apply(Pair<T> map, T h_before) {
  return map.a * h_before + map.b;
}
// [/snippet:combine]

}  // namespace ema

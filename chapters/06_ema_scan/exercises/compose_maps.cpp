// Exercise 1: the pair operator.
//
// A pair (a, b) is the map h -> a h + b. Return the pair of the map "first, then second":
// apply `first` to h, then `second` to the result, and read off the new a and b. Check
// by hand that (1, 0) is an identity on both sides.
// Test it with:  scripts/exercise ch06_ema_scan 1
#include "reference.hpp"

namespace ema {

// [snippet:exercise]
Pair<double> compose_maps(Pair<double> first, Pair<double> second) {
  // TODO(exercise): compose the two affine maps.
  // [/snippet:exercise]
  (void)first;
  return second;
}

}  // namespace ema

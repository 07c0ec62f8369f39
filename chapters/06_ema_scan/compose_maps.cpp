// Exercise 1's solution: the pair operator in fp64 (declared in reference.hpp).
#include "reference.hpp"

namespace ema {

// [snippet:compose_maps]
Pair<double> compose_maps(Pair<double> first, Pair<double> second) {
  // first: h -> a1 h + b1; then second: h -> a2 h + b2. Together: h -> a2 (a1 h + b1) + b2.
  return {first.a * second.a, second.a * first.b + second.b};
}
// [/snippet:compose_maps]

}  // namespace ema

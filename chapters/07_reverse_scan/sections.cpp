// What the sections of chapter 07's program share (sections.hpp): the random problems and the
// shapes' names.
#include "sections.hpp"

#include <fmt/format.h>

#include <random>

namespace ch07 {

Problem random_problem(Shape shape, std::uint64_t seed, double lo, double hi) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> decay(lo, hi), unit(-1.0, 1.0);
  Problem p{shape,
            std::vector<double>(shape.size()),
            std::vector<double>(shape.size()),
            std::vector<double>(shape.size()),
            {},
            {}};
  for (std::size_t i = 0; i < shape.size(); ++i) {
    p.a[i] = decay(rng);
    p.b[i] = unit(rng);
    p.target[i] = unit(rng);
  }
  p.h = rscan::forward(shape, p.a, p.b);
  p.dy = rscan::log_cosh_loss_gradient(p.h, p.target);
  return p;
}

std::string shape_name(Shape s) { return fmt::format("{} × {}", s.sequences, s.length); }

}  // namespace ch07

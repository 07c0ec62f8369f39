// sections.hpp: the sections of chapter 07's program, in the order it runs them, and what they
// share: the options, the GPU checks' tolerances and the random problems.
// sections.cpp holds the shared helpers, sections_cpu.cpp the sections that run on the CPU (the
// gradient against finite differences, vanishing gradients, the warp simulation),
// sections_gpu.cpp the GPU checks and the memory h costs, sections_benchmark.cpp the benchmark.
#pragma once

#include "common_options.hpp"
#include "compare.hpp"
#include "notebook.hpp"
#include "reference.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ch07 {

using common::Notebook;
using common::Tolerance;
using rscan::Shape;

struct Options {
  long long check_length = (1 << 20) + 7;
};

// fp32 on the GPU against fp64: decays below 0.95 keep g and h below 20, and an error made at
// one step fades geometrically, so the error stays near a few float epsilons times 20.
inline constexpr Tolerance kGradB{2e-4, 2e-4};
inline constexpr Tolerance kGradA{2e-3, 2e-4};

struct Problem {
  Shape shape;
  std::vector<double> a, b, target, h, dy;
};

Problem random_problem(Shape shape, std::uint64_t seed, double lo = 0.3, double hi = 0.95);

std::string shape_name(Shape s);

void section_small_example(Notebook& nb, const common::CommonOptions& common);
void section_finite_differences(Notebook& nb, const common::CommonOptions& common);
void section_vanishing(Notebook& nb);
void section_warp_simulation(Notebook& nb, const common::CommonOptions& common, const Options& o);
void section_gpu_checks(Notebook& nb, const common::CommonOptions& common, const Options& o);
void section_memory(Notebook& nb, const common::CommonOptions& common);
void section_benchmark(Notebook& nb, const common::CommonOptions& common);

}  // namespace ch07

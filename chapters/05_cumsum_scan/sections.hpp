// sections.hpp: the sections of chapter 05's program, in the order it runs them, and what they
// share: the options, the exact tolerance, the small example and the cells of its rows.
// sections.cpp holds the shared helpers, sections_reference.cpp the fp64 reference,
// sections_simulations.cpp the CPU simulations of Hillis-Steele, Blelloch and the look-back,
// sections_gpu.cpp the GPU versions' checks and the benchmark.
#pragma once

#include "compare.hpp"
#include "notebook.hpp"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace ch05 {

using common::Notebook;
using common::Tolerance;

struct Options {
  long long check_size = (1 << 20) + 7;
  int tiles = 16;
  int resident_blocks = 4;
};

// Integer inputs make every partial sum exact in fp32 (reference.hpp says why), so every
// correct scan reproduces the reference to the last bit, whatever its order of additions;
// a dropped, doubled or misplaced element is off by a whole number.
inline constexpr Tolerance kExact{0.0, 0.0};

// A small example whose sums a reader can check by eye.
inline const std::vector<double> kExample{3, 1, 7, 0, 4, 1, 6, 3, 5, 2, 8, 1, 0, 9, 2, 4};

std::string row_of(const std::vector<double>& values, const std::function<std::string(double)>& cell, int width = 4);
std::string number(double v);

void section_reference(Notebook& nb, const Options& o);
void section_hillis_steele(Notebook& nb);
void section_blelloch(Notebook& nb);
void section_look_back(Notebook& nb, const Options& o);
void section_gpu(Notebook& nb, const Options& o);
void section_benchmark(Notebook& nb);

}  // namespace ch05

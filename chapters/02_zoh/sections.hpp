// sections.hpp: the sections of chapter 02's program, in the order it runs them, and what they
// share: the options, the numbers' format, the figures' axes and the GPU check's size.
// sections.cpp holds the shared helpers, sections_oscillator.cpp the four rules on a damped
// oscillator (their matrices, convergence and responses), sections_diagonal.cpp diagonal A, φ₁
// and Mamba's B̄, sections_gpu.cpp the GPU versions' checks and the benchmark.
#pragma once

#include "notebook.hpp"
#include "selective.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace ch02 {

using common::Notebook;

struct Options {
  int batch = 2;
  int length = 300;
  int channels = 96;
  int state = 16;
};

std::string sci(double v);
std::vector<double> linspace(double first, double last, int count);

// The GPU check compares the first kCheckedTokens tokens of every shape with fp64.
inline constexpr std::size_t kCheckedTokens = 4096;

// Host memory of the GPU check at the command line's shape: its inputs (Δ, B and A in fp32),
// and for its first kCheckedTokens tokens the fp64 reference of Ā and B̄ with what
// check_kernel holds while it compares them (the GPU's results, copies, the merged lists):
// about 80 bytes an element checked. In doubles, so that no product of sizes can overflow.
double check_host_bytes(const zoh::SelectiveShape& s);

void section_four_rules(Notebook& nb);
void section_exact_for_staircase(Notebook& nb);
void section_responses(Notebook& nb);
void section_diagonal(Notebook& nb);
void section_gap(Notebook& nb);
void section_gpu(Notebook& nb, const Options& o);
void section_benchmark(Notebook& nb);

}  // namespace ch02

// sections.hpp: the sections of chapter 01's program, in the order it runs them, and what they
// share: the options, the fp32 tolerance and the figures' axes. sections.cpp holds the shared
// helpers, sections_recurrence.cpp the tanh RNN and the linear RNN as a convolution,
// sections_gradients.cpp the derivatives through time (memory, vanishing and exploding
// gradients, backpropagation through time), sections_gpu.cpp the GPU versions' checks and the
// benchmark.
#pragma once

#include "compare.hpp"
#include "notebook.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace ch01 {

using common::Notebook;
using common::Tolerance;

struct Options {
  int batch = 1000;
  int length = 257;
  int hidden = 32;
  double radius = 0.9;
};

// fp32 against fp64 over a few hundred steps of a contracting RNN: the rounding of each
// step is damped by the next, so errors stay near fp32's resolution (~1e-6 here); an
// indexing or synchronisation bug shows up as errors of order 0.1.
inline constexpr Tolerance kFp32Tolerance{2e-5, 1e-4};

std::vector<double> range(int n, int first = 0);
std::string time_major_index(std::size_t i, int batch);

void section_tanh_rnn(Notebook& nb, const Options& o);
void section_memory(Notebook& nb, const Options& o);
void section_gradients(Notebook& nb, const Options& o);
void section_linear_is_ssm(Notebook& nb, const Options& o);
void section_bptt(Notebook& nb, const Options& o);
void section_gpu(Notebook& nb, const Options& o);
void section_benchmark(Notebook& nb, const Options& o);

}  // namespace ch01

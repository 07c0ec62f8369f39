// sections.hpp: the sections of chapter 04's program, in the order it runs them, and what they
// share: the options and the figures' axes. sections.cpp holds the shared helpers,
// sections_hippo.cpp the HiPPO matrices and LegS and LegT memorizing a signal, sections_s4d.cpp
// the eigenvalues and the S4D initializations' kernels, sections_gpu.cpp the GPU versions'
// checks and the benchmark.
#pragma once

#include "notebook.hpp"

#include <vector>

namespace ch04 {

using common::Notebook;

struct Options {
  int length = 10000;  // samples of the signal HiPPO memorizes
  int state = 64;      // S4D state size N
  int channels = 256;  // channels of the GPU benchmark
};

std::vector<double> range(int n, double first = 0, double step = 1);

void section_matrices(Notebook& nb);
void section_legs_online(Notebook& nb, const Options& o);
void section_legt(Notebook& nb, const Options& o);
void section_eigenvalues(Notebook& nb, const Options& o);
void section_s4d_kernels(Notebook& nb, const Options& o);
void section_gpu(Notebook& nb, const Options& o);
void section_benchmark(Notebook& nb, const Options& o);

}  // namespace ch04

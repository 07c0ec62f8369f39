// sections.hpp: the sections of chapter 03's program, in the order it runs them, and what they
// share: the options, the fp64 tolerance and the figures' axes. sections.cpp holds the shared
// helpers, sections_kernel.cpp the kernel K̄ (real and complex eigenvalues) and why a varying Δ
// leaves none, sections_toeplitz.cpp the Toeplitz products forward and backward,
// sections_gpu.cpp the GPU versions' checks and the benchmark.
#pragma once

#include "compare.hpp"
#include "notebook.hpp"

#include <vector>

namespace ch03 {

using common::Notebook;

struct Options {
  int batch = 4;
  int channels = 64;
  int length = 1000;
};

inline constexpr common::Tolerance kFp64Tolerance{1e-12, 1e-9};

std::vector<double> range(int n);

// The GPU check's problem at the command line's size (batch × channels rows of n), checked
// before any work: the FFT path (cufftPlanMany, int sizes) takes fewer than 2^31 numbers; the
// host holds t, x, the fp64 reference and the GPU's result (8 bytes an element of t, about 24
// of x with the fp32 copies sent up); the GPU holds t, x, the output and the FFT's buffers.
// The sizes take memory only where the GPU check runs.
void require_gpu_check_fits(const Options& o);

void section_kernel(Notebook& nb, const Options& o);
void section_oscillating(Notebook& nb, const Options& o);
void section_toeplitz(Notebook& nb, const Options& o);
void section_backward(Notebook& nb, const Options& o);
void section_gpu(Notebook& nb, const Options& o);
void section_benchmark(Notebook& nb);
void section_time_varying(Notebook& nb, const Options& o);

}  // namespace ch03
